"""Short constructors for hand-written ASTs in tests."""
from tomecraft.dsl import nodes as n


def call(verb, *args):
    return n.Call(verb, tuple(args))


def name(dotted):
    return n.Name(tuple(dotted.split(".")))


def block(*stmts):
    return n.Block(tuple(stmts))

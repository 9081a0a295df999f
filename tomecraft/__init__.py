"""`tomecraft` inside a checkout: the repository's folders are its subpackages.

compiler/, dsl/, runtime/ and generated/ are tomecraft.compiler, tomecraft.dsl... Python finds
this file when it runs from the checkout's root (`python -m tomecraft.compiler.cli ...`, pytest,
the Makefile), so a checkout runs its own code, installed or not. An installed wheel has its own
tomecraft/__init__.py (written by setup.py); this folder holds nothing else.
"""
import os

__path__ = [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]

"""Packaging: the repository's folders become one import package, `tomecraft`.

compiler/, dsl/, runtime/ and generated/ install as tomecraft.compiler, tomecraft.dsl,
tomecraft.runtime and tomecraft.generated; content/ and schemas/ ship as data inside
`tomecraft` (pyproject.toml, [tool.setuptools.package-data]). The package list is computed so
that a new engine or a new shipped pack needs no edit here. Everything else is in pyproject.toml.
"""
import os

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

FOLDERS = ("compiler", "dsl", "runtime", "generated")


INIT = ('"""tomecraft: board-game content compiled to playable code and printable sheets."""\n'
        '__all__ = []\n')


class BuildPy(build_py):
    """The repository's root is the `tomecraft` package's folder: ship none of its own .py
    files (this setup.py), only the subpackages and the data, plus an __init__.py written here,
    so the installed `tomecraft` is a regular package that no other distribution can merge
    into. (A checkout has no __init__.py at its root: pytest would take the checkout's folder
    for a package. An editable install maps `tomecraft` to the checkout as a namespace.)"""

    def find_package_modules(self, package, package_dir):
        modules = super().find_package_modules(package, package_dir)
        return [m for m in modules if package != "tomecraft"]

    def run(self):
        super().run()
        if not self.editable_mode:
            init = os.path.join(self.build_lib, "tomecraft", "__init__.py")
            os.makedirs(os.path.dirname(init), exist_ok=True)
            with open(init, "w", encoding="utf-8") as handle:
                handle.write(INIT)

    def get_outputs(self, include_bytecode=True):
        outputs = super().get_outputs(include_bytecode)
        if not self.editable_mode:
            outputs.append(os.path.join(self.build_lib, "tomecraft", "__init__.py"))
        return outputs


setup(
    cmdclass={"build_py": BuildPy},
    package_dir={"tomecraft": "."},
    packages=["tomecraft"] + [
        f"tomecraft.{name}"
        for name in find_packages(include=[p for f in FOLDERS for p in (f, f + ".*")])
    ],
)

from setuptools import setup

setup(name="lib", packages=["lib"])

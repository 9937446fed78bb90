from setuptools import setup

setup(name="mamba-ssm-fork", packages=["mamba_ssm", "mamba_ssm.modules"])

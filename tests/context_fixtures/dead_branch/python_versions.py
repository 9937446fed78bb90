import sys

import six
import torch
from six import PY2

if torch._six.PY3:
    import importlib
else:
    import imp

if sys.version_info[0] < 3:
    import asyncore as old_core
if sys.version_info >= (3, 0):
    pass
else:
    import asyncore
if sys.version_info.major == 2:
    import smtpd
if six.PY2:
    import asynchat
if PY2:
    import smtpd as old_smtpd
if sys.version_info < (3, 12):
    import imp as old_imp
if sys.version_info >= (3, 13):
    import asyncore as maybe
if sys.version_info[:2] >= (3, 8):
    pass
else:
    import smtpd as legacy
if sys.version_info[1] > 20:
    import asynchat as later

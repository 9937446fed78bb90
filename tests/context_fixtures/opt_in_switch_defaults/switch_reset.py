import sys

from transformers import BitsAndBytesConfig

# set True here, but the command line can turn it off: still the user's switch
USE_QLORA = True
if "--no-qlora" in sys.argv:
    USE_QLORA = False

if USE_QLORA:
    bnb_config = BitsAndBytesConfig(load_in_4bit=True)

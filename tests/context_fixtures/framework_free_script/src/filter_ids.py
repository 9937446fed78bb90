import sys
import cPickle as pickle

ids = set(line.strip() for line in open(sys.argv[1]))
pickle.dump(ids, open(sys.argv[2], "w"))

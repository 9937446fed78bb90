import sys
import cPickle as pickle

ids = set(line.strip() for line in open(sys.argv[1]))
for line in open(sys.argv[2]):
    if line.split()[0] in ids:
        print line,
pickle.dump(ids, open(sys.argv[3], "w"))

class Trie(object):
    def __init__(self):
        self.children = {}

    def iterkeys(self, prefix=""):
        for key in self.children:
            yield prefix + key

    def keys(self):
        return list(self.iterkeys())


def legacy(counts):
    for word, n in counts.iteritems():
        print(word, n)

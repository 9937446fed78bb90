from pkg.arch import _shared

print(_shared(0))

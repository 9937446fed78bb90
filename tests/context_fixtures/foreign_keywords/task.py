class DistillationTask:
    def compile(self, backend="inductor", mode=None, **kwargs):
        self.student = self.student.compile(backend=backend, mode=mode)  # nn.Module.compile: reported
        self.teacher.compile(backend=backend, mode=mode, compile_model=True, **kwargs)  # the project's own API
        return self.student

    def compile_fast(self, backend="inductor", **kwargs):
        self.student.compile(backend=backend, **kwargs)  # only **kwargs besides: proves nothing, reported

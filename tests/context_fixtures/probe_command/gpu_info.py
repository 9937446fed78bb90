import subprocess


def memory():
    return subprocess.run(["nvidia-smi", "--query-gpu=memory.used", "--format=csv"], capture_output=True)


def probes():
    subprocess.run(["which", "nvidia-smi"], check=False)
    subprocess.run(("/usr/bin/which", "nvidia-smi"))
    subprocess.run(["echo", "nvidia-smi"])


def wrapped(prefix):
    subprocess.run([prefix, "nvidia-smi"])


def as_root():
    return subprocess.check_output(args=["sudo", "nvidia-smi", "-L"])


def report():
    try:
        out = subprocess.check_output(["nvidia-smi", "-L"])
    except FileNotFoundError:
        out = b""
    return out


def report_strict():
    try:
        return subprocess.check_output(["nvidia-smi", "-L"])
    except FileNotFoundError:
        raise RuntimeError("needs an NVIDIA driver")

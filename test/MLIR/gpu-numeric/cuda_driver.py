"""The CUDA driver API through ctypes (libcuda.so.1 only: no toolkit, no
numpy), shared by the GPU launchers: test/MLIR/gpu-numeric/launch_nvvm.py
(numeric checks) and bench/local-gather/launch_gather.py (timings)."""
import ctypes
import sys

CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16


def load(tool):
    """libcuda, or exit naming the tool that needed it."""
    try:
        return ctypes.CDLL("libcuda.so.1")
    except OSError as e:
        sys.exit(f"{tool}: no NVIDIA driver here ({e}); run this on the GPU machine")


class Driver:
    def __init__(self, tool):
        self.cuda = load(tool)

    def check(self, rc, what):
        if rc != 0:
            msg = ctypes.c_char_p()
            self.cuda.cuGetErrorString(rc, ctypes.byref(msg))
            raise RuntimeError(f"{what}: CUDA error {rc} ({msg.value.decode() if msg.value else '?'})")

    def init_context(self):
        """Device 0's primary context made current; (device name, SM count)."""
        cuda, check = self.cuda, self.check
        check(cuda.cuInit(0), "cuInit")
        dev = ctypes.c_int()
        check(cuda.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
        devname = ctypes.create_string_buffer(256)
        cuda.cuDeviceGetName(devname, 256, dev)
        sms = ctypes.c_int()
        check(cuda.cuDeviceGetAttribute(ctypes.byref(sms), CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev),
              "cuDeviceGetAttribute")
        ctx = ctypes.c_void_p()
        check(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
        check(cuda.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
        return devname.value.decode(), sms.value

    def device_buffer(self, data_bytes):
        """A device allocation holding data_bytes."""
        ptr = ctypes.c_uint64()
        n = ctypes.c_size_t(len(data_bytes))
        self.check(self.cuda.cuMemAlloc_v2(ctypes.byref(ptr), n), "cuMemAlloc")
        self.check(self.cuda.cuMemcpyHtoD_v2(ptr, ctypes.create_string_buffer(data_bytes, len(data_bytes)), n),
                   "cuMemcpyHtoD")
        return ptr

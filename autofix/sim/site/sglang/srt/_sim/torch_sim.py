"""The sliver of torch the simulated ranks "run": allocations, set_device, dtypes.

Allocation goes through a stand-in of ``torch/utils/_device.py`` (the DeviceContext
TorchFunctionMode every model constructor runs under), so an out-of-memory error has the
frames and the message of a real one. Native ops are @hidden (no frame), like C++ code.
"""

import types

from sglang.srt._sim import gpu_state, host
from sglang.srt._sim.foreign import exception_class, hidden, place, virtual_module

OutOfMemoryError = exception_class(
    "torch", "OutOfMemoryError", RuntimeError, "Exception raised when device is out of memory"
)
AcceleratorError = exception_class(
    "torch", "AcceleratorError", RuntimeError, "Exception raised while executing on device"
)

CUDA_ERROR_TAIL = (
    "\nCUDA kernel errors might be asynchronously reported at some other API call, "
    "so the stacktrace below might be incorrect.\n"
    "For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
    "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n"
)


@hidden
def _native_empty(*size, dtype=None, device=None, **kwargs):
    nbytes = 1
    for s in size:
        nbytes *= int(s)
    nbytes *= _DTYPE_BYTES.get(dtype, 2)
    message = gpu_state.try_allocate(nbytes)
    if message is not None:
        raise OutOfMemoryError(message)
    return _Tensor(size, dtype, nbytes)


@hidden
def _native_set_device(device):
    if device >= host.visible_gpus():
        raise AcceleratorError("CUDA error: invalid device ordinal" + CUDA_ERROR_TAIL)
    gpu_state.bind(device)


_C = types.SimpleNamespace(_cuda_setDevice=_native_set_device)

_DEVICE_SRC = place(
    [
        (
            1,
            """
# mypy: allow-untyped-defs
import functools

import torch
from torch.overrides import TorchFunctionMode
""",
        ),
        (
            80,
            '''
class DeviceContext(TorchFunctionMode):
    def __init__(self, device):
        self.device = torch.device(device)

    def __enter__(self):
        global CURRENT_DEVICE
        self.old_device = CURRENT_DEVICE
        CURRENT_DEVICE = self.device
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        global CURRENT_DEVICE
        CURRENT_DEVICE = self.old_device

''',
        ),
        (
            100,
            """
    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func in _device_constructors() and kwargs.get("device") is None:
            kwargs["device"] = self.device
        return func(*args, **kwargs)
""",
        ),
    ]
)

_CUDA_SRC = place(
    [
        (
            1,
            '''
r"""
This package adds support for CUDA tensor types.
"""
import torch
''',
        ),
        (
            553,
            '''
def set_device(device) -> None:
    r"""Set the current device.

    Usage of this function is discouraged in favor of :any:`device`. In most
    cases it's better to use ``CUDA_VISIBLE_DEVICES`` environmental variable.

    Args:
        device (torch.device or int): selected device. This function is a no-op
            if this argument is negative.
    """
    device = _get_device_index(device)
    if device >= 0:
        torch._C._cuda_setDevice(device)
''',
        ),
    ]
)


class _TorchFacade(types.SimpleNamespace):
    pass


class TorchFunctionMode:
    pass


def _device_constructors():
    return {_native_empty}


_torch_for_virtual = _TorchFacade(_C=_C, device=lambda d: d)

_device_mod = virtual_module(
    "torch/utils/_device.py",
    "torch.utils._device",
    _DEVICE_SRC.replace("import torch\nfrom torch.overrides import TorchFunctionMode\n", "\n\n"),
    {
        "torch": _torch_for_virtual,
        "TorchFunctionMode": TorchFunctionMode,
        "_device_constructors": _device_constructors,
        "CURRENT_DEVICE": None,
        "functools": __import__("functools"),
    },
)

_cuda_mod = virtual_module(
    "torch/cuda/__init__.py",
    "torch.cuda",
    _CUDA_SRC.replace("import torch\n", "\n"),
    {"torch": _torch_for_virtual, "_get_device_index": lambda d: int(d)},
)

_DTYPE_BYTES = {"bfloat16": 2, "float16": 2, "float32": 4, "float8_e4m3fn": 1, "uint8": 1, "int8": 1}


class _Tensor:
    def __init__(self, size, dtype, nbytes):
        self.shape = tuple(size)
        self.dtype = dtype
        self.nbytes = nbytes


class _DeviceModeHolder:
    mode = None


def device(dev):
    """``with torch.device("cuda:N"):`` -- the DeviceContext the loaders construct under."""
    ctx = _device_mod.DeviceContext.__new__(_device_mod.DeviceContext)
    ctx.device = dev
    return ctx


@hidden
def empty(*size, dtype="bfloat16", device=None):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    mode = _DeviceModeHolder.mode or device_mode()
    return mode.__torch_function__(_native_empty, (), size, {"dtype": dtype})


def device_mode():
    if _DeviceModeHolder.mode is None:
        _DeviceModeHolder.mode = device(f"cuda:{gpu_state._state['gpu_id']}")
    return _DeviceModeHolder.mode


@hidden
def set_device(device_index):
    return _cuda_mod.set_device(device_index)


def get_device_module(device=None):
    """torch.get_device_module("cuda") -> the torch.cuda module stand-in."""
    return _cuda_mod


bfloat16 = "bfloat16"
float16 = "float16"
float32 = "float32"
uint8 = "uint8"

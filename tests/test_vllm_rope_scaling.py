"""Issue 14 round 39, written before the change: vLLM's releases before 0.10 took the RoPE
theta as its own flag (``--rope-theta 1000000``); SGLang has no such flag, the value is the
``rope_theta`` key of the model-config override ``--json-model-override-args``. The user's
number is carried as the key's value, not dropped.

(vLLM's ``--rope-scaling`` JSON is not read the same way: TGI and llama.cpp spell a flag of
their own so, taking words, and the table leaves a spelling engines disagree on out.)"""

from __future__ import annotations

import json

from .proposing import renamed


def test_vllms_rope_theta_becomes_the_override_key() -> None:
    child = renamed({"rope-theta": "1000000", "max-model-len": "131072"})
    assert json.loads(str(child.arg("json-model-override-args"))) == {"rope_theta": 1000000}
    assert child.arg("context-length") == "131072"

from sglang.srt.utils.common import *  # noqa: F401,F403
from sglang.srt.utils.common import kill_process_tree  # noqa: F401

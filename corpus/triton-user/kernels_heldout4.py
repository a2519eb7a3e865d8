"""The fourth held-out set (issue 24 item 7, session 16): written after the three-stage rule for
the 4-wave gate (docs/modes.md, "Session 16: the 4-wave gate with three stages") was in, from the
tuning and held-out loops it was seen on, and generated before the rule was measured on them.
The kernels are the earlier sets' (the shapes users write); the configurations are new: 4 warps
with three stages, where the rule judges the gate, and two-stage twins where it does not.
"""
from kernels import attn_bp, attn_gqa  # noqa: F401
from kernels_heldout import attn_tut, attn_mixed  # noqa: F401
from kernels_heldout2 import mha_fwd, mha_alibi, mha_softcap  # noqa: F401

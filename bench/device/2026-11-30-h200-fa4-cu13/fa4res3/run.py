# FA4 forward on the H200 through FA4's own ptxas hook
# (CUTE_DSL_PTXAS_PATH), checked against PyTorch's attention and timed.
import json, os, sys, torch
from flash_attn.cute.interface import flash_attn_func
rows = []
for causal in (False, True):
    g = torch.Generator(device="cuda").manual_seed(1)
    q, k, v = (torch.randn(2, 8192, 16, 128, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(3))
    out = flash_attn_func(q, k, v, causal=causal)
    out = out[0] if isinstance(out, tuple) else out
    ref = torch.nn.functional.scaled_dot_product_attention(
        q.transpose(1, 2).float(), k.transpose(1, 2).float(), v.transpose(1, 2).float(), is_causal=causal).transpose(1, 2)
    err = ((out.float() - ref).norm() / ref.norm()).item()
    for _ in range(10):
        flash_attn_func(q, k, v, causal=causal)
    ts = []
    for _ in range(50):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); flash_attn_func(q, k, v, causal=causal); b.record(); torch.cuda.synchronize()
        ts.append(a.elapsed_time(b))
    ts.sort()
    rows.append({"causal": causal, "rel_err": err, "ok": bool(torch.isfinite(out).all()) and err < 2e-2, "median_ms": ts[len(ts) // 2]})
    print(json.dumps(rows[-1]), flush=True)
json.dump({"gpu": torch.cuda.get_device_name(), "rows": rows}, open(sys.argv[1], "w"))

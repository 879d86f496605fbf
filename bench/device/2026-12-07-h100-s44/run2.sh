#!/bin/bash
D=.dev/s44
cd "$(dirname "$0")/../.."
for f in hist Sort hist Sort; do echo "$f (A=base B=new)"; python3 $D/alt.py $D/px-base $D/px-new $D/$f.ptx 80 | head -1; done
for f in hist Sort; do echo "$f (A=new B=base)"; python3 $D/alt.py $D/px-new $D/px-base $D/$f.ptx 80 | head -1; done
uptime

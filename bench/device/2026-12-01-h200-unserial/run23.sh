#!/bin/bash
# Seventh session, third call: run22.sh again, with locfix and the scope
# fix (commit f2365d3); results in res23/.
RUN=23 exec bash "$(dirname "$0")/run22.sh"

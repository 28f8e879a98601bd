helm rollcall template demo charts/edge-gateway -n demo >/dev/null

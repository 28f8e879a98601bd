bash scripts/build-deb.sh          # writes build-deb/rollcall_0.1.0_amd64.deb
sudo apt install ./build-deb/rollcall_0.1.0_amd64.deb

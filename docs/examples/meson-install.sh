meson install -C build        # as root; DESTDIR=/tmp/stage meson install -C build to stage

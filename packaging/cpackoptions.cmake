# Read by cpack per generator (CPACK_PROJECT_CONFIG_FILE).
# The autostart entry has an absolute destination (/etc/xdg/autostart). DEB handles that;
# archive generators would install it onto the building machine instead of into the archive
# unless they stage through DESTDIR. The tarball mirrors the deb's tree (usr/..., etc/...).
if(CPACK_GENERATOR STREQUAL "TGZ")
    set(CPACK_SET_DESTDIR ON)
    set(CPACK_INSTALL_PREFIX /usr)
endif()

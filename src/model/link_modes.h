/* The kernel's names of link-mode bits (ETHTOOL_LINK_MODE_*_BIT): the
 * modes `ethtool IF` lists and the FEC modes `ethtool --show-fec IF`
 * prints.  The sets themselves are in struct link_info (inventory.h),
 * read by src/nl/link_modes.c. */
#ifndef RD_MODEL_LINK_MODES_H
#define RD_MODEL_LINK_MODES_H

/* The kernel's name of a link-mode bit ("100000baseCR4/Full", "RS"), NULL
 * past the table (a newer kernel's bit). */
const char *link_mode_name(unsigned bit);

/* The FEC mode's name of a link-mode bit: "None", "RS", "BASER", "LLRS";
 * NULL for any other bit. */
const char *link_fec_name(int bit);

#endif

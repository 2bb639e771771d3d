/* Link-mode and FEC names (link_modes.h). */
#include "link_modes.h"

#include <linux/ethtool.h>
#include <stddef.h>

/* net/ethtool/common.c link_mode_names[], up to 6.12 (103 bits) */
static const char *const mode_names[] = {
	"10baseT/Half", "10baseT/Full", "100baseT/Half", "100baseT/Full", "1000baseT/Half",
	"1000baseT/Full", "Autoneg", "TP", "AUI", "MII", "FIBRE", "BNC", "10000baseT/Full",
	"Pause", "Asym_Pause", "2500baseX/Full", "Backplane", "1000baseKX/Full",
	"10000baseKX4/Full", "10000baseKR/Full", "10000baseR_FEC", "20000baseMLD2/Full",
	"20000baseKR2/Full", "40000baseKR4/Full", "40000baseCR4/Full", "40000baseSR4/Full",
	"40000baseLR4/Full", "56000baseKR4/Full", "56000baseCR4/Full", "56000baseSR4/Full",
	"56000baseLR4/Full", "25000baseCR/Full", "25000baseKR/Full", "25000baseSR/Full",
	"50000baseCR2/Full", "50000baseKR2/Full", "100000baseKR4/Full", "100000baseSR4/Full",
	"100000baseCR4/Full", "100000baseLR4_ER4/Full", "50000baseSR2/Full", "1000baseX/Full",
	"10000baseCR/Full", "10000baseSR/Full", "10000baseLR/Full", "10000baseLRM/Full",
	"10000baseER/Full", "2500baseT/Full", "5000baseT/Full", "None", "RS", "BASER",
	"50000baseKR/Full", "50000baseSR/Full", "50000baseCR/Full", "50000baseLR_ER_FR/Full",
	"50000baseDR/Full", "100000baseKR2/Full", "100000baseSR2/Full", "100000baseCR2/Full",
	"100000baseLR2_ER2_FR2/Full", "100000baseDR2/Full", "200000baseKR4/Full",
	"200000baseSR4/Full", "200000baseLR4_ER4_FR4/Full", "200000baseDR4/Full",
	"200000baseCR4/Full", "100baseT1/Full", "1000baseT1/Full", "400000baseKR8/Full",
	"400000baseSR8/Full", "400000baseLR8_ER8_FR8/Full", "400000baseDR8/Full",
	"400000baseCR8/Full", "LLRS", "100000baseKR/Full", "100000baseSR/Full",
	"100000baseLR_ER_FR/Full", "100000baseCR/Full", "100000baseDR/Full", "200000baseKR2/Full",
	"200000baseSR2/Full", "200000baseLR2_ER2_FR2/Full", "200000baseDR2/Full",
	"200000baseCR2/Full", "400000baseKR4/Full", "400000baseSR4/Full",
	"400000baseLR4_ER4_FR4/Full", "400000baseDR4/Full", "400000baseCR4/Full",
	"100baseFX/Half", "100baseFX/Full", "10baseT1L/Full", "800000baseCR8/Full",
	"800000baseKR8/Full", "800000baseDR8/Full", "800000baseDR8_2/Full", "800000baseSR8/Full",
	"800000baseVR8/Full", "10baseT1S/Full", "10baseT1S/Half", "10baseT1S_P2MP/Half",
	"10baseT1BRR/Full",
};

const char *link_mode_name(unsigned bit)
{
	return bit < sizeof(mode_names) / sizeof(mode_names[0]) ? mode_names[bit] : NULL;
}

const char *link_fec_name(int bit)
{
	switch (bit) {
	case ETHTOOL_LINK_MODE_FEC_NONE_BIT:
		return "None";
	case ETHTOOL_LINK_MODE_FEC_RS_BIT:
		return "RS";
	case ETHTOOL_LINK_MODE_FEC_BASER_BIT:
		return "BASER";
	case ETHTOOL_LINK_MODE_FEC_LLRS_BIT:
		return "LLRS";
	default:
		return NULL;
	}
}

package dev.collsim.topology.fabric;

import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import dev.collsim.units.Bandwidth;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Fabric options that the cluster's shape makes meaningless. Oversubscription is leaf downlink over uplink
 * bandwidth ({@link FabricSpec#oversubscription()}); when every NIC of a plane sits under one leaf switch
 * ({@link FabricBuilder}: at most {@link FabricSpec#leafRadix()} NICs per leaf, or a single switch) no traffic
 * reaches a spine, so an oversubscribed fabric behaves exactly as a non-blocking one. A user asking for "2:1" on such
 * a cluster would read a what-if that cannot differ from 1:1. Likewise a fabric link speed above the NICs' (each
 * cable runs at the slower end).
 */
public final class FabricWarnings {

    private FabricWarnings() {
    }

    /**
     * @param spec a cluster spec (its fabric may be null: no warning)
     * @param t    the topology built from it
     * @return warning lines (no leading "warning:"), empty when the fabric's options all matter
     */
    public static List<String> of(ClusterSpec spec, Topology t) {
        List<String> out = new ArrayList<>();
        FabricSpec f = spec.fabric();
        if (f == null) {
            return out;
        }
        linkSpeed(f, t).ifPresent(out::add);
        if (f.oversubscription() <= 1.0) {
            return out;
        }
        boolean spines = t.devices(NetSwitch.class).stream().anyMatch(s -> s.tier() == NetSwitch.Tier.SPINE);
        if (!spines) {
            out.add(String.format(Locale.ROOT, "oversubscription %s:1 has no effect: every NIC of the %d host%s sits"
                    + " under one leaf switch (%s, at most %d NICs per leaf), so no traffic crosses a spine; the"
                    + " fabric behaves as non-blocking", plain(f.oversubscription()), spec.count(),
                    spec.count() == 1 ? "" : "s", f.kind().yamlName(), f.leafRadix()));
        }
        return out;
    }

    /**
     * A fabric link speed above the compute NICs' changes nothing: each NIC-leaf cable runs at the slower of the two
     * ({@link FabricBuilder#speed}), and the leaf-spine cables follow the NICs'. A user who writes {@code linkSpeed:
     * 800 Gb/s} for 800G NICs on a host type with 400G ones reads a what-if that is not one.
     *
     * @return the warning, when {@code linkSpeed} is faster than the fastest compute NIC (rail >= 0)
     */
    private static Optional<String> linkSpeed(FabricSpec f, Topology t) {
        Optional<Bandwidth> nic = t.devices(Nic.class).stream().filter(n -> n.rail() >= 0).map(Nic::speed)
                .max(Comparator.naturalOrder());
        if (f.linkSpeed() == null || nic.isEmpty() || f.linkSpeed().compareTo(nic.get()) <= 0) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "fabric.linkSpeed %s Gb/s has no effect: the hosts' compute"
                + " NICs run at %s Gb/s and each cable at the slower of its two ends; for faster NICs give hosts that"
                + " have them (an inline host's nics: {count: N, speed: ...}, or a report variant's nic-speed)%s",
                plain(f.linkSpeed().gbits()), plain(nic.get().gbits()), bytesForBits(f.linkSpeed(), nic.get())));
    }

    /**
     * The commonest unit slip: a port speed sold in bits written in bytes ({@code 400 GB/s} for a 400 Gb/s NIC) is
     * 8x the NIC's speed (1 byte = 8 bits).
     *
     * @return a hint naming the value as written in GB/s and the Gb/s it likely meant, when {@code link} is exactly
     *         8x {@code nic}; else empty text
     */
    private static String bytesForBits(Bandwidth link, Bandwidth nic) {
        double gbytes = link.gbits() / 8.0;
        if (Math.abs(gbytes - nic.gbits()) > 1e-9 * nic.gbits()) {
            return "";
        }
        return String.format(Locale.ROOT, "; %s Gb/s is %s GB/s (bytes): if you meant %s Gb/s (bits, as NIC ports"
                + " are sold), write linkSpeed: %s Gb/s", plain(link.gbits()), plain(gbytes), plain(gbytes),
                plain(gbytes));
    }

    private static String plain(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}

package dev.collsim.topology.fabric;

import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Fabric options that the cluster's shape makes meaningless. Oversubscription is leaf downlink over uplink
 * bandwidth ({@link FabricSpec#oversubscription()}); when every NIC of a plane sits under one leaf switch
 * ({@link FabricBuilder}: at most {@link FabricSpec#leafRadix()} NICs per leaf, or a single switch) no traffic
 * reaches a spine, so an oversubscribed fabric behaves exactly as a non-blocking one. A user asking for "2:1" on such
 * a cluster would read a what-if that cannot differ from 1:1.
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
        if (f == null || f.oversubscription() <= 1.0) {
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

    private static String plain(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}

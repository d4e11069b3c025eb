package dev.collsim.cli.predict;

import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.HostType;
import dev.collsim.topology.fabric.ClusterSpec;
import dev.collsim.topology.fabric.FabricKind;
import dev.collsim.topology.fabric.FabricSpec;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Resolves {@code -c/--cluster} for {@code predict}: a catalog host type with an optional host count,
 * {@code NAME} or {@code NAMExN} (e.g. {@code dgx-h100}, {@code dgx-h100x4}); several hosts are joined by a
 * rail-optimized fabric of the hosts' NIC speed (topology catalog and fabric by the topo module). The default
 * cluster is one DGX H100.
 */
final class ClusterChoice {

    /** The cluster used when {@code -c} is absent. */
    static final String DEFAULT = "dgx-h100";

    private static final Pattern SPEC = Pattern.compile("([a-z0-9-]+?)(?:x([0-9]+))?");

    private ClusterChoice() {
    }

    /**
     * @param text the option value
     * @return the topology
     * @throws IllegalArgumentException naming the value and the allowed catalog names
     */
    static Topology resolve(String text) {
        String v = (text == null ? DEFAULT : text).trim().toLowerCase(Locale.ROOT);
        Matcher m = SPEC.matcher(v);
        if (m.matches()) {
            HostType type = Catalog.hostType(m.group(1)).orElse(null);
            int count = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
            if (type != null && count >= 1) {
                String name = count == 1 ? type.name() : type.name() + "x" + count;
                if (count > 1) {
                    try {
                        return new ClusterSpec(name, type.description(), type, count,
                                FabricSpec.of(FabricKind.RAIL_OPTIMIZED)).build();
                    } catch (IllegalArgumentException noComputeNic) {
                        // hosts without compute NICs (an NVLink-only domain): no fabric
                    }
                }
                return new ClusterSpec(name, type.description(), type, count, null).build();
            }
        }
        throw new IllegalArgumentException("unknown cluster '" + text + "'; allowed: a catalog name with an optional"
                + " host count NAMExN, catalog names: " + String.join(", ", Catalog.names()));
    }
}

package dev.collsim.cli.predict;

import dev.collsim.cli.ClusterOption;
import dev.collsim.io.InputException;
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
 * Resolves {@code -c/--cluster} for {@code predict}: whatever the shared {@link ClusterOption} accepts (a file, a
 * config name from configs/, a catalog host type; default: the {@code default} config), plus the shorthand
 * {@code NAMExN} for N hosts of a catalog type joined by a rail-optimized fabric (e.g. {@code dgx-h100x4}).
 */
final class ClusterChoice {

    /** The cluster used when {@code -c} is absent (the topo module's default config). */
    static final String DEFAULT = dev.collsim.topology.io.ClusterLoader.DEFAULT;

    /**
     * @param option the shared cluster option
     * @return the topology
     * @throws InputException when neither the shared loader nor the NAMExN shorthand resolves the value
     */
    static Topology load(ClusterOption option) throws InputException {
        try {
            return option.load();
        } catch (InputException e) {
            try {
                return resolve(option.value());
            } catch (IllegalArgumentException notShorthand) {
                throw e;
            }
        }
    }

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

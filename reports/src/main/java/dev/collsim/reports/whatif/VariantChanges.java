package dev.collsim.reports.whatif;

import dev.collsim.reports.spec.VariantSpec;
import dev.collsim.topology.edit.ClusterEdits;
import java.util.ArrayList;
import java.util.List;

/**
 * The "changes from the base" cell of a variant: its edits in words, the network between hosts when it changed
 * without a {@code network} key (another host type brings its own class, e.g. EFA for p5.48xlarge), so no change of
 * transport goes unsaid, and for trays of a rack-scale type (NVL72) the trays and NVLink domains they fill (a
 * {@code host-type: a4x-maxgpu-4g-metal} on 4 hosts is 4 trays in one domain). Stateless.
 */
final class VariantChanges {

    private VariantChanges() {
    }

    /**
     * @param spec the variant as written
     * @param v    the variant resolved
     * @param base the base resolved (null or {@code v} itself for the base)
     * @return the cell text; {@code -} for no change
     */
    static String text(VariantSpec spec, ResolvedVariant v, ResolvedVariant base) {
        List<String> parts = new ArrayList<>();
        // trays of a rack-scale type: the count is said with the NVLink domains below, in trays
        ClusterEdits edits = v.trays() != null ? spec.edits().withoutHosts() : spec.edits();
        if (!edits.isEmpty()) {
            parts.add(edits.describe(v.trays() != null));
        }
        if (base != null && base != v && spec.edits().network() == null && v.topology().hostCount() > 1
                && v.topology().networkClass() != base.topology().networkClass()) {
            parts.add("over " + v.topology().networkClass().label() + " (the host type's network)");
        }
        if (v.trays() != null && (base == null || base == v || !v.trays().equals(base.trays())
                || spec.edits().hosts() != null)) {
            // trays of a rack-scale type: how many NVLink domains they fill, which a host count alone hides
            parts.add(v.trays());
        }
        return parts.isEmpty() ? "-" : String.join(", ", parts);
    }
}

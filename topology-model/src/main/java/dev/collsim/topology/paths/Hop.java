package dev.collsim.topology.paths;

import dev.collsim.topology.Device;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.units.Bandwidth;
import java.util.List;
import java.util.Objects;

/**
 * One hop of a path: all parallel links of one type from one device to the next. NCCL merges parallel links of the
 * same type between two nodes into one link whose bandwidth is the sum (NCCL 2.30 {@code src/graph/topo.cc}
 * {@code ncclTopoConnectNodes}); a hop does the same. NVSwitch chips of one NVLink domain count as one device, the
 * chip with the smallest id ({@link ScopeGraph}), so a hop to an NVSwitch carries the links to all the domain's chips.
 * This record is immutable.
 *
 * @param from  near device (for NVSwitch chips, the domain's first chip)
 * @param to    far device (for NVSwitch chips, the domain's first chip)
 * @param type  link type of every link in the hop
 * @param links the parallel directed links, at least one
 */
public record Hop(Device from, Device to, LinkType type, List<Link> links) {

    /** @throws IllegalArgumentException when {@code links} is empty */
    public Hop {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(type, "type");
        links = List.copyOf(links);
        if (links.isEmpty()) {
            throw new IllegalArgumentException("a hop needs at least one link");
        }
    }

    /** @return lanes or NVLinks in the hop: the sum of the links' counts */
    public int count() {
        int c = 0;
        for (Link l : links) {
            c += l.count();
        }
        return c;
    }

    /** @param view which bandwidth; @return the hop's bandwidth per direction: the sum over its parallel links */
    public Bandwidth bandwidth(BandwidthView view) {
        double sum = 0;
        for (Link l : links) {
            sum += view.of(l).gbps();
        }
        return Bandwidth.ofGBps(sum);
    }
}

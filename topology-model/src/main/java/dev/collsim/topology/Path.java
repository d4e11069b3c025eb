package dev.collsim.topology;

import dev.collsim.units.Bandwidth;
import java.util.List;
import java.util.Objects;

/**
 * The path NCCL would use between two devices (NCCL 2.30 {@code src/graph/paths.cc}): its type (the worst link
 * class along it, with NCCL's PXB/PHB/NVB/PXN rules), its bottleneck bandwidth and its links.
 *
 * @param type      NCCL path type
 * @param bandwidth bottleneck bandwidth (minimum link bandwidth along the path), per direction
 * @param links     the directed links, in order from source to destination (empty for LOC or DIS)
 */
public record Path(PathType type, Bandwidth bandwidth, List<Link> links) {

    /** Copies the link list. */
    public Path {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(bandwidth, "bandwidth");
        links = List.copyOf(links);
    }

    /** @return number of links crossed (NCCL's hop count) */
    public int hops() {
        return links.size();
    }
}

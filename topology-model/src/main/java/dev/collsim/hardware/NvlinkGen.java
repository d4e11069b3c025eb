package dev.collsim.hardware;

import dev.collsim.units.Bandwidth;

/**
 * NVLink generations with their physical (datasheet) bandwidth per link and direction: the one home of NVLink
 * datasheet figures (GB/s = 1e9 B/s).
 *
 * <p>NCCL does not use these: its own per-link figures (20.6 GB/s for sm90 where the datasheet says 25) are
 * {@code dev.collsim.topology.NcclBandwidths#nvlinkPerLink}.
 */
public enum NvlinkGen {
    /** NVLink 1 (P100): 20 GB/s per link and direction (Tesla P100 datasheet: 160 GB/s bidirectional, 4 links). */
    NVLINK1("NVLink1", 20.0, "Tesla P100 datasheet: 160 GB/s bidirectional over 4 links"),
    /** NVLink 2 (V100, Turing bridges): 25 GB/s (Tesla V100 datasheet: 300 GB/s bidirectional, 6 links). */
    NVLINK2("NVLink2", 25.0, "Tesla V100 datasheet: 300 GB/s bidirectional over 6 links"),
    /** NVLink 3 (A100): 25 GB/s (A100 datasheet: 600 GB/s bidirectional, 12 links). */
    NVLINK3("NVLink3", 25.0, "A100 datasheet: 600 GB/s bidirectional over 12 links"),
    /**
     * NVLink 3 bridge of GA10x boards (RTX A6000, RTX 3090): 14.0625 GB/s (RTX A6000 datasheet: 112.5 GB/s
     * bidirectional over the bridge's 4 links).
     */
    NVLINK3_GA10X_BRIDGE("NVLink3", 14.0625, "NVIDIA RTX A6000 datasheet: 112.5 GB/s bidirectional over 4 links"),
    /** NVLink 4 (H100, H200): 25 GB/s (H100 datasheet: 900 GB/s bidirectional, 18 links). */
    NVLINK4("NVLink4", 25.0, "H100 datasheet: 900 GB/s bidirectional over 18 links"),
    /** NVLink 5 (B200, GB200, GB300): 50 GB/s (Blackwell datasheet: 1.8 TB/s bidirectional, 18 links). */
    NVLINK5("NVLink5", 50.0, "NVIDIA Blackwell (HGX B200) datasheet: 1.8 TB/s bidirectional over 18 links");

    private final String label;
    private final double gbpsPerLink;
    private final String source;

    NvlinkGen(String label, double gbpsPerLink, String source) {
        this.label = label;
        this.gbpsPerLink = gbpsPerLink;
        this.source = source;
    }

    /** @return the generation as link details write it, e.g. {@code NVLink4} */
    public String label() {
        return label;
    }

    /** @return the datasheet bandwidth of one link per direction */
    public Bandwidth perLink() {
        return Bandwidth.ofGBps(gbpsPerLink);
    }

    /** @param links link count, >= 0; @return the datasheet bandwidth of that many links per direction */
    public Bandwidth links(int links) {
        return Bandwidth.ofGBps(gbpsPerLink * links);
    }

    /** @return the datasheet the per-link figure comes from */
    public String source() {
        return source;
    }
}

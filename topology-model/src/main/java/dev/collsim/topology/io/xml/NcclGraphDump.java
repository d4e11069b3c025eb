package dev.collsim.topology.io.xml;

import dev.collsim.topology.GraphPattern;
import dev.collsim.topology.PathType;
import java.util.List;
import java.util.Objects;

/**
 * The channel graphs NCCL computed for one node, as written to {@code NCCL_GRAPH_DUMP_FILE} and read from
 * {@code NCCL_GRAPH_FILE} (NCCL 2.30 {@code src/graph/search.cc} {@code ncclTopoGetXmlFromGraphs}). This record is
 * immutable.
 *
 * @param version the {@code graphs version} attribute
 * @param graphs  the {@code graph} elements in file order
 */
public record NcclGraphDump(int version, List<Graph> graphs) {

    /** Copies the list. */
    public NcclGraphDump {
        graphs = List.copyOf(graphs);
    }

    /**
     * One computed graph (NCCL's {@code ncclTopoGraph}).
     *
     * @param id           graph id: 0 ring, 1 tree, 2 collnetChain, 3 nvls, 4 collnetDirect (NCCL 2.30 init.cc)
     * @param pattern      the pattern
     * @param crossNic     NCCL's {@code crossnic} (0, 1 or 2)
     * @param nChannels    number of channels ({@code nchannels})
     * @param bwIntra      bandwidth per channel inside the node, GB/s ({@code speedintra})
     * @param bwInter      bandwidth per channel between nodes, GB/s ({@code speedinter})
     * @param latencyInter {@code latencyinter}, microseconds (0 when absent)
     * @param typeIntra    worst path type used inside the node ({@code typeintra})
     * @param typeInter    worst path type used to reach the network ({@code typeinter})
     * @param sameChannels {@code samechannels}: 1 when every channel uses the same GPU order
     * @param channels     the channels, in file order
     */
    public record Graph(int id, GraphPattern pattern, int crossNic, int nChannels, double bwIntra, double bwInter,
            double latencyInter, PathType typeIntra, PathType typeInter, int sameChannels, List<Channel> channels) {

        /** Copies the list and checks for nulls. */
        public Graph {
            Objects.requireNonNull(pattern, "pattern");
            Objects.requireNonNull(typeIntra, "typeIntra");
            Objects.requireNonNull(typeInter, "typeInter");
            channels = List.copyOf(channels);
        }
    }

    /**
     * One channel: the devices in the order NCCL visits them.
     *
     * @param devices {@code net} and {@code gpu} elements in file order
     */
    public record Channel(List<Step> devices) {

        /** Copies the list. */
        public Channel {
            devices = List.copyOf(devices);
        }

        /** @return the GPU {@code dev} indices in channel order, leaving out the NETs */
        public List<Integer> gpuOrder() {
            return devices.stream().filter(s -> !s.net()).map(Step::dev).toList();
        }
    }

    /**
     * One device of a channel, as NCCL's topology id of its {@code dev} attribute ({@code NCCL_TOPO_ID(systemId,
     * dev)}, 2.28.9 {@code src/graph/topo.h}: the system id in bits 56 and up, the device's index below; system id 0
     * but on a multi-node NVLink system, whose node spans several hosts).
     *
     * @param net      true for a {@code net} element, false for a {@code gpu}
     * @param systemId the host of NCCL's node the device is on ({@code NCCL_TOPO_ID_SYSTEM_ID}), 0 .. 127
     * @param dev      its index on that host ({@code NCCL_TOPO_ID_LOCAL_ID}): the CUDA device index of a GPU, the NET
     *                 device index of a NIC, 0 .. 575
     */
    public record Step(boolean net, int systemId, int dev) {

        /** A device of system 0 (a graph of one host's GPUs). */
        public Step(boolean net, int dev) {
            this(net, 0, dev);
        }
    }
}

package dev.collsim.simulator.channel;

import dev.collsim.topology.NetworkClass;

/**
 * The network latency a transport reports to NCCL in its device properties ({@code ncclNetProperties.latency},
 * microseconds). NCCL's graph search copies it from the NET node into every graph that crosses the network
 * ({@code graph->latencyInter = net->net.latency}, NCCL 2.30.7 {@code src/graph/search.cc}; the same in 2.18.5), and
 * its tuning adds it to the inter-node step latency once per protocol and once more for Simple, "the flush"
 * ({@code interLat += graphs[a]->latencyInter}, {@code src/graph/tuning.cc ncclTopoTuneModel}; 2.18.5 the same).
 * So a reported latency changes NCCL's algorithm and protocol choice. It is an estimate, not the transport's time:
 * collsim's time ({@code dev.collsim.simulator.perf.PerformanceModel}) reads NCCL's latency without it
 * ({@code simulator.PreparedCommunicator} tunes the time's table on graphs of {@code latencyInter} 0) and charges the
 * network class's own cost per crossing instead ({@code perf.NetClassDefaults}: EFA 20 us, read on the public EFA
 * runs). Not a fitted figure: what each transport reports.
 *
 * <ul>
 *   <li>InfiniBand and RoCE (NCCL's internal IB network): 0, "not set" (NCCL 2.30.7
 *       {@code src/transport/net_ib/init.cc}).</li>
 *   <li>Socket (NCCL's internal socket network): 0 ({@code src/transport/net_socket.cc}).</li>
 *   <li>EFA (aws-ofi-nccl): 75 us. The plugin takes it from its platform table unless OFI_NCCL_NET_LATENCY is set:
 *       75 us for p4d.24xlarge, p4de.24xlarge, p5.48xlarge (v1.7.3-aws {@code src/platform-aws.c}; at HEAD
 *       {@code src/platform-aws.cpp}: also p5e and p5.4xlarge, and 75 us for a platform the table does not list,
 *       "empirical testing on P5 had shown that NCCL's internal tuner choices work better with this value"),
 *       35 us for p5en, p6-b200 and p6-b300 (HEAD), 150 us for p3dn (both). collsim has one figure per network
 *       class, the p4d/p5 one, so a p5en or p6 cluster is modelled with 40 us more per network step than its
 *       NCCL sees. Before v1.7.0-aws the plugin reported 150 us on every EFA platform (v1.5.0-aws
 *       {@code src/nccl_ofi_net.c set_nic_props_default}). Both figures were set for NCCL's choice, not
 *       measured as a time: 150 because "A few different values around this value were tried to see which chose
 *       the correct algorithm (tree or ring) most times" (v1.5.0-aws, same function), 75 because "a value below
 *       75us ... makes NCCL choose the wrong algorithm for the 2 nodes case" (aws-ofi-nccl commit d87d61e0,
 *       2023-05-31). NCCL 2.17 and older read it differently: in place of the network's hardware latency, once
 *       per inter-node step and not doubled for Simple ({@code interLat = latencyInter ? latencyInter :
 *       hwLat[NET][a][p]}, v2.17.1-1 {@code src/graph/tuning.cc}); collsim applies 2.18's rule to those
 *       releases. Charged as time, the 75 us put the prediction of the 2x8 A100 p4de run (NCCL 2.17.1, aws-ofi-nccl
 *       1.5.0aws, Tree/Simple) at 2.0-2.4x the measured time at 8 B-16 KiB, and the 2x8 A100 p4d run of NCCL 2.23
 *       (aws-ofi-nccl 1.13.2, Simple only by its plugin's setting, {@link AwsOfiNcclProto}) at 2.0-2.2x: three EFA
 *       generation 1 runs share a 158-180 us floor whatever the protocol (167.5 us with LL on the NCCL 2.8 p4d run),
 *       where NCCL's estimate doubles the latency for Simple ("Also add the flush extra latency", v2.23.4-1
 *       {@code src/graph/tuning.cc}). So the time no longer reads it (since 2026-12-06).</li>
 *   <li>TCPX/TCPXO (Google's plugin): 0. google/nccl-plugin-gpudirect-tcpxo v1.0.17 (qualified with NCCL 2.28.7)
 *       {@code tcpdirect_plugin/fastrak_offload/nccl_shim.cc NcclShim::GetProperties}: latency 0, maxRecvs 1,
 *       maxComms 65536, netDeviceType NCCL_NET_DEVICE_HOST (no device-side unpack), speed read from the netdev's
 *       {@code /sys/class/net/DEV/speed} ({@code common.cc GetSpeed}, 10 Gb/s when unreadable). GPUDirect-TCPX
 *       (A3 High and A3 Edge; google/nccl-plugin-gpudirecttcpx v3.1.9, commit 4b8ea7f2, {@code src/net_tcpx.cc
 *       tcpxGetProperties}): latency 0, maxRecvs 1, maxComms 65536, speed from the same sysfs file (10 Gb/s when
 *       unreadable), but netDeviceType NCCL_NET_DEVICE_UNPACK: the NIC writes received payload into pages of a GPU
 *       buffer pool, and NCCL's receiving kernel copies the pages into place ({@code src/device/prims_simple.h
 *       loadRecvConn}, {@code src/device/network/unpack/unpack.h}); with such a device NCCL doubles the channels
 *       between nodes below 16 ({@code src/graph/connect.cc}, NCCL_UNPACK_DOUBLE_NCHANNELS, default 1), which
 *       collsim does not model (the class also covers TCPXO, whose device type is HOST; GCP's GKE TCPX
 *       configurations fix 8 channels, NCCL_MIN_NCHANNELS = NCCL_MAX_NCHANNELS = 8,
 *       GoogleCloudPlatform/container-engine-accelerators {@code gpudirect-tcpx/nccl-config*.yaml}). GCP's later
 *       TCPX script sets NCCL_GPUDIRECTTCPX_REPORT_NETWORK_LATENCY=80
 *       (google/nccl-plugin-gpudirect-tcpxo {@code tcpxo_scripts/run-nccl.sh}, v1.0.12 to v1.0.17), a setting the
 *       public v3.1.9 plugin does not read (no public plugin source reads it), so 0 is kept. Its
 *       latency term in collsim is therefore none; its measured extra cost per hop is a class figure
 *       ({@code dev.collsim.simulator.perf.NetClassDefaults}, TCPXO).</li>
 *   <li>gIB (Google's RDMA plugin on A3 Ultra, A4, A4X and A4X Max): 0, as NCCL's internal IB network, by
 *       assumption. The plugin ships only as a binary in Google's containers (us-docker.pkg.dev/gce-ai-infra/
 *       gpudirect-gib), so its {@code getProperties} is not public. What is public is the environment its
 *       {@code /usr/local/gib/scripts/set_nccl_env.sh} exports (the A4 list as third-party GKE A4 training scripts
 *       copy it; Google's own manifests only source the script, GoogleCloudPlatform/container-engine-accelerators
 *       {@code gpudirect-rdma/nccl-test-a4.yaml}:
 *       NCCL_NET=gIB, NCCL_CROSS_NIC=0, NCCL_NET_GDR_LEVEL=PIX, NCCL_P2P_NET_CHUNKSIZE and NCCL_P2P_PCI_CHUNKSIZE
 *       131072, NCCL_P2P_NVL_CHUNKSIZE and NCCL_NVLS_CHUNKSIZE 524288, NCCL_IB_GID_INDEX=3,
 *       NCCL_IB_ADAPTIVE_ROUTING=1, NCCL_IB_QPS_PER_CONNECTION=4, NCCL_IB_TC=52, NCCL_IB_FIFO_TC=84 and a tuner
 *       configuration, {@code /usr/local/gib/configs/tuner_config_a4.txtpb}, not public; GoogleCloudPlatform/
 *       kubernetes-engine-samples {@code ai-ml/nemo-rl-on-gke} names {@code tuner_config_a3u.txtpb} for H200):
 *       NCCL's own IB transport parameters and no latency setting, unlike aws-ofi-nccl's OFI_NCCL_NET_LATENCY. None
 *       of those settings is a latency, and the tuner's choices cannot be modelled without its configuration;
 *       collsim runs gIB as RoCE ({@link NetworkClass#detect}).</li>
 *   <li>HPE Slingshot ({@link NetworkClass#SLINGSHOT}) reaches NCCL through aws-ofi-nccl too, but off AWS the
 *       plugin keeps its parameter default, 0 (aws-ofi-nccl {@code include/nccl_ofi_param.h} NET_LATENCY 0.0,
 *       {@code src/nccl_ofi_net.cpp set_nic_props_default} {@code props->latency}), so NCCL tunes it as
 *       InfiniBand.</li>
 * </ul>
 * Stateless.
 */
public final class NetPluginLatency {

    /** aws-ofi-nccl's reported latency on p4d, p4de, p5 and p5e and for unlisted platforms, microseconds. */
    public static final double EFA_US = 75.0;

    /**
     * First NCCL 2 minor release whose net plugin API has the latency property: {@code ncclNetProperties_t} gains
     * {@code float latency} at v2.12.7-1 ({@code src/include/nccl_net.h} line 34; absent at v2.11.4-1, v2.8.4-1 and
     * v2.4.8-1), and v2.12.7-1 first copies it into the graph ({@code src/graph/search.cc} line 468,
     * {@code graph->latencyInter = net->net.latency}) and the tuning ({@code src/graph/tuning.cc} line 140).
     */
    public static final int FIRST_MINOR = 12;

    private NetPluginLatency() {
    }

    /**
     * Whether a release reads the latency a plugin reports. Before 2.12 NCCL's tuning takes the network's hardware
     * latency alone ({@code hwLat[NCCL_HW_NET]}, v2.8.4-1 {@code src/graph/tuning.cc}), as it does for a transport that
     * reports 0, whatever aws-ofi-nccl's platform table says.
     *
     * @param ncclMinor the NCCL 2 minor release of the run, e.g. 8 for 2.8.4
     * @return true from 2.12 on
     */
    public static boolean readBy(int ncclMinor) {
        return ncclMinor >= FIRST_MINOR;
    }

    /**
     * @param c the network class between the nodes
     * @return the latency its transport reports to NCCL, microseconds
     */
    public static double reportedUs(NetworkClass c) {
        return c == NetworkClass.EFA ? EFA_US : 0;
    }
}

package dev.collsim.simulator.perf;

import dev.collsim.topology.NetworkClass;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Default {@link NetClassProfile}s of the network transports other than InfiniBand, with their sources. InfiniBand is
 * the reference ({@link PerformanceParameters#netProfile}: step {@code netStepUs}, no added hop latency, the full
 * line rate). InfiniBand's hop latency was checked on its six public multi-host files with small sizes (median floor
 * at 8-256 B less the model's, per {@link NetHops} hop: -0.61 to +5.62 us, median 0.75, leaving one file out -0.36
 * or 1.86; docs/launch-overhead.md "Multi-host floors", InfinibandHopLatencyDerivationTest): the files split by
 * cluster, so no class figure is made. Public datasets are in {@code validation/src/test/resources/data}; a class
 * with one usable dataset cannot be checked by leave-one-out, so its figures are marked as taken from that file and
 * are the first thing to calibrate. Stateless.
 *
 * <ul>
 *   <li><b>RoCE</b> (11 us, 5 us, 0.90): step 11 us, the middle of the "about 10-12 us per network step" measured
 *       on 400G RoCE in NVIDIA/nccl#2409; hop 5 us from the only healthy RoCE run with small sizes and an unambiguous
 *       cluster, 2x8 A100 OCI OKE SR-IOV RoCE (A-allreduce-2x8xA100-40GB-oci-oke-sriov-roce-nccl2.26.txt): 36.5-40.7 us
 *       measured at 8-512 B, floor (their minimum, as launchOverheadUs is read: a slow iteration only adds time)
 *       36.47 us against 26.7 us predicted for InfiniBand (NCCL's 25.2 + launchOverheadUs 1.5), (36.47 - 26.7) / 2
 *       inter-node Tree hops = 4.9, rounded to 5 (5.1 with the former launch 1.0). Line-rate share 0.90
 *       ({@link #ROCE_LINE_RATE_SHARE}), measured: the busbw six public runs on 400 and 800 Gb/s RoCE NICs reach
 *       at their largest size, over the busbw their NICs carry at line rate (RoceLineRateShareTest works each
 *       bound out by hand): GCP A4 2x8 B200
 *       NVLSTree AllReduce 683.52 / 750 = 0.911 (A-allreduce-2x8xB200-gcp-a4-roce-dstack-8M-8G.txt line 25); GCP A4
 *       2x8 B200 Ring AllGather (gIB v1.0.5, VMs) 377.38 / 400 = 0.943 (A-allgather-2x8xB200-gcp-a4-gib-vm-nccl2.25.txt
 *       line 39); GCP A4X Max 2x4 GB300 AllGather 357.13 / 400 = 0.893 and
 *       360.42 / 400 = 0.901 (A-allgather-2x4xGB300-gcp-a4xmax-gke-gib-cross-nvl-domain-nccl2.28.txt lines 51, 89);
 *       OCI GB200 NVL72 AllToAll across 2 and 3 racks 89.70 / 99.22 = 0.904 and 62.49 / 74.61 = 0.838
 *       (A-allreduce-alltoall-GB200-NVL72-oci-1to48nodes-mnnvl-nccl2.27.txt lines 83, 92). Median 0.9025, two
 *       providers' fabrics and three GPU types; leaving any one run out gives 0.901-0.904. The runs' own
 *       increments agree (4 to 8 GiB: 0.925 on the B200, 0.915 and 0.860 on the racks), so it is a rate, not a fixed
 *       cost. Not read from (was 0.89 with them, the median of seven): the two GCP A3 Ultra 2x8 H200 Ring AllGathers
 *       (325.72 / 400 and 325.52 / 400 = 0.814, A-allgather-2x8xH200-gcp-a3ultra-gke-gib-skypilot-nccl2.26.txt lines
 *       60, 112), bound by their 16 ring channels ({@link RingChannelRate}: 16 x 20.7 = 331.2 GB/s busbw), so their
 *       share is a lower bound of the fabric's, not a reading of it; the 2x1 H200 GKE run with one NIC per Pod (0.64
 *       at 8 GiB, A-allreduce-2x1xH200-gke-dranet-1gpu-1nic-roce-gib.txt), whose header places its GPU and NIC apart;
 *       the GCP A4 B200 DraNet AllGather (A-allgather-2x8xB200-gke-a4-dranet-gib-nccl2.26.txt), slow at every size.
 *       The 200 Gb/s DGX Spark run (A-allgather-2x1xGB10-dgxspark-roce200-switch-vs-direct.txt, run 1) moves 0.925 of
 *       its NIC per added byte from 2 to 4 GiB (lines 23-24), above the share, and a fixed cost below it. What the
 *       share is made of is not published: RoCEv2's framing (Ethernet, IP, UDP, BTH, ICRC, FCS, preamble and gap, 82 B
 *       per 4096 B packet: 0.980) explains a fifth of it; the rest is the fabric's (congestion control, ECMP), which
 *       grows with the racks on OCI (0.904 on 2, 0.838 on 3). InfiniBand's share stays 1.0 (the Lambda 2x8
 *       B200 InfiniBand run moves 0.954 of its NICs per added byte from 1 to 2 GiB,
 *       A-allreduce-2x8xB200-lambda-1cc-ib-dstack-nccl2.26.txt, where the model's other terms already derate). The
 *       100 Gb/s A100 RoCE runs (OCI BM.GPU4.8, 16 NICs per node) run below their NIC bound (the OKE run's 237.9
 *       GB/s busbw at 8 GiB against 321.4), so they neither support nor contradict the share: they did not move.</li>
 *   <li><b>EFA</b> (10 us, 20 us, 0.82): InfiniBand's step cost; its own hop latency and line-rate share, read on
 *       the public EFA runs. The latency aws-ofi-nccl reports to NCCL (75 us on p4d, p4de and p5) is an estimate set
 *       for NCCL's choice ({@code simulator.channel.NetPluginLatency}); it stays in NCCL's choice and is not time:
 *       charged as time it put both Simple runs below at 2.2x the measured time at 8 B-16 KiB. The time charges this
 *       class's hop latency instead, per network crossing and, for Simple before Hopper, once more for NCCL's GDR
 *       flush ({@link NetHops#latencyCharges}). Hop latency 20 us ({@link #EFA_HOP_US}): per run, the median measured
 *       time at 8-256 B (out of place) less the model's floor (NCCL's latency of the run's release, the plugin's
 *       share left out, plus launchOverheadUs 1.5), over the charges: 2x8 A100 p4d, NCCL 2.23.4, aws-ofi-nccl
 *       1.13.2, Tree/Simple by the plugin's NCCL_PROTO (A-allreduce-2x8xA100-40GB-aws-p4d-dlami-efa-nccl2.23.txt lines
 *       48-53) (178.55 - 93.9) / 4 = 21.2; 2x8 A100 p4de, NCCL 2.17.1, aws-ofi-nccl 1.5.0, NCCL_PROTO=simple
 *       (A-allreduce-2x8xA100-80GB-aws-p4de-efa-parallelcluster-nccl2.17-excerpt.txt lines 35-40) (160.55 - 85.5) / 4
 *       = 18.8; 2x8 V100 p3dn NCCL 2.4.8 Ring/LL, no GPUDirect
 *       (A-allreduce-2x8xV100-32GB-aws-p3dn-dlami-efa-nccl2.4.txt lines 83-88) (137.15 - 60.9) / 4 = 19.1; 2x8 A100
 *       p4d NCCL 2.8.3 Tree/LL, a 2021 stack (A-allreduce-2x8xA100-40GB-aws-p4d-eks-efa-nccl2.8.txt lines 51-56)
 *       (167.8 - 29.0) / 2 = 69.4. Median 20.1, rounded to 20; leaving one run out 19.1 or 21.2 (EfaFiguresTest).
 *       It agrees with the plugin's own model tuner, which times an inter-node step on p5 at 20 us, 23 us for Simple
 *       (aws-ofi-nccl {@code src/tuner/nccl_ofi_model.cpp} net_lat, {@code include/nccl_ofi_param.h}
 *       TUNER_NET_COMP_OVERHEAD); not fitted to it.
 *       Line-rate share 0.82 ({@link #EFA_LINE_RATE_SHARE}): the busbw the two GPUDirect runs of current plugins
 *       reach at 1 GiB over the 93.75 GB/s that a 2-node Tree gets from 4 x 100 Gb/s per node: 76.21 / 93.75 =
 *       0.813 (p4d, line 75), 77.61 / 93.75 = 0.828 (p4de, line 62); their mean 0.82, and either alone predicts the
 *       other's 1 GiB within 2 %. On those two runs' hosts (A100, SENDRECV) Tree/Simple no longer uses it: each
 *       later send of a connection waits a read rendezvous, then moves at the full line rate
 *       ({@link LibfabricReadRendezvous}, 16 us fitted on their added sends; 0.84 at 512 KiB sends), which also
 *       gives their mid sizes; the share stays for the EFA hosts that rule does not reach (p3dn, p5, Ring), where
 *       no run measures a share of its own. Not read from: the p4d NCCL 2.8.3 run (0.35, a 2021 stack 2.3x slower than the
 *       same hosts with 2.23), the p3dn run (no GPUDirect: staged through host memory), the 2x8 H100 p5 run
 *       (A-allreduce-2x8xH100-aws-p5-eks-efa-nccl2.18-partial.txt, NVLSTree, not bound by its 32 x 100 Gb/s). The
 *       p5 run has no row below 64 MiB; its 64 MiB-1 GiB take 1.4-2.5x the predicted time (64 MiB-1 GiB were
 *       1.3-1.9x while the plugin's 300 us was charged as time); left open (docs/accuracy.md, its row). The
 *       two Simple runs' mid-size miss (32 KiB-64 MiB 16-43 % fast, growing with the bytes per network send) is the
 *       receiver's copy of each crossing's first send's eager bytes, up to libfabric's 300 KiB runt size, into GPU
 *       memory ({@link LibfabricEagerCopy}, its own figures: a per-send cost, not a class figure), and the
 *       rendezvous of each later send ({@link LibfabricReadRendezvous}). Not modelled, with
 *       sources (aws-ofi-nccl, {@code src/platform-aws.cpp} platform table, {@code include/nccl_ofi_param.h}):
 *       on p5/p5e the plugin defaults to its RDMA-write protocol (SENDRECV elsewhere), stripes a message over the
 *       device's rails only above OFI_NCCL_MIN_STRIPE_SIZE 128 KiB (v1.7.3-aws: above OFI_NCCL_ROUND_ROBIN_THRESHOLD
 *       8 KiB, {@code src/nccl_ofi_scheduler.c}), sets NCCL_BUFFSIZE 8 MiB, NCCL_P2P_NET_CHUNKSIZE
 *       and the NVLS and NVLSTree chunks 512 KiB (from v1.16; the p5 run's v1.7.3-aws sets on p5 only NCCL_TOPO_FILE,
 *       {@code src/platform-aws.c}, and has no tuner, first in v1.8.0). Modelled: its NCCL_PROTO=simple where the
 *       EFA device cannot order 128-byte writes (p4d, p4de: {@code simulator.channel.AwsOfiNcclProto}). Read and not
 *       binding: maxRecvs 1 (v1.13.2-aws {@code include/nccl_ofi.h} NCCL_OFI_MAX_RECVS) and 128 requests per
 *       communicator (NCCL_OFI_MAX_REQUESTS), above NCCL's 8 sends in flight per connection ({@link NetTransport}).
 *       What NCCL sees as a NIC: with SENDRECV every EFA device; with RDMA (p5 from v1.7.3-aws, whose
 *       {@code src/nccl_ofi_rdma.c} already reports {@code speed *= num_rails}) the plugin groups the NICs local to a
 *       GPU into one device of several rails ({@code src/nccl_ofi_topo.c}), 8 of 400 Gb/s per p5 node, as collsim's
 *       catalog builds it ({@code topology.catalog.OfiRailGroups}): the same 400 GB/s per node. Its sends above 8 KiB
 *       wait for the receiver's control message: {@link OfiRdmaCtrlWait}.</li>
 *   <li><b>TCPXO</b> (10 us, 14 us, 0.94), GCP's GPUDirect-TCPXO plugin (FasTrak; A3 Mega, 8x 200 Gb/s per node).
 *       Hop latency from the one public run with small sizes, 2x8 H100 A3 Mega
 *       (A-allreduce-2x8xH100-gcp-a3mega-tcpxo.txt), under the settings it ran with: its VM image installs GCP's TCPXO
 *       NCCL plugin installer v1.0.4 and sources that installer's {@code nccl-env-profile.sh}
 *       (lessizzmore/create-a3mega-ztan-fork, {@code startup_script_ubuntu.sh} line 234, README line 199), whose
 *       configs (GoogleCloudPlatform/container-engine-accelerators {@code gpudirect-tcpxo/README.md}, releases of Jun
 *       27 and Aug 06 2024) are NCCL_ALGO=Ring,Tree, NCCL_PROTO=Simple, NCCL_MIN_NCHANNELS=4, NCCL_BUFFSIZE 8 MiB,
 *       NCCL_NVLS_ENABLE=0 and a tuner plugin; the file's header lists them, so NCCL's choice is Tree/Simple at every
 *       size. Hop latency: its floor (the median at 8-256 B, lines 35-40) 123.35 us against 93.9 us for Tree/Simple
 *       without it (NCCL's tuning tables, 2 nodes x 8 ranks, plus the launch) over the 2 crossings of a 2-node tree
 *       gives 14.7, rounded down to 14 us per hop. Line-rate share 0.94 ({@link #TCPXO_LINE_RATE_SHARE}): the median
 *       of four A3 Mega runs at 8 GiB (this run's 180.7 GB/s algbw, 0.90 of the 200 GB/s the 8x 200 Gb/s NICs carry,
 *       and three Ring AllGathers' 188.5-188.9 GB/s busbw, 0.943-0.944).
 *       Step cost: InfiniBand's 10 us ({@link #IB_STEP_US}), an assumption: no TCPXO run is
 *       bound by a step of 10 us, and the 58 us read on TCPX (below) is ruled out on TCPXO: the two A3 Mega AllGathers
 *       at 64 MiB take 447.4 us (A-allgather-2x8xH100-gcp-a3mega-tcpxo-dstack.txt line 20) and 517.9 / 444.3 us
 *       (A-allgather-2x8xH100-gcp-a3mega-gke-tcpxo-cluster-toolkit.txt line 38), where 58 us gives 870 us (Ring/Simple,
 *       collsim's model of NCCL's choice there, the tuner plugin's not known: 30 sends per connection, 4 in flight, a
 *       slot back after 2 steps, {@link NetTransport}),
 *       so a TCPXO step is at most 447.4 / 15 = 29.8 us. The plugins differ where TCPX pays its step: FasTrak moves
 *       the data path out of the guest (its {@code dxs} client hands each send to the host's stack) and its control
 *       messages onto a low-latency channel (NCCL_FASTRAK_USE_LLCM=1 in every public profile, google/nccl-plugin-
 *       gpudirect-tcpxo {@code tcpxo_scripts/nccl-env-profile.sh} v1.0.12-v1.0.17), with no device-side unpack
 *       (netDeviceType HOST). The A3 Mega AllReduce's Tree/Simple connections are bound by neither step. Not
 *       modelled: the tuner's configuration ({@code a3plus_tuner_config.textproto}, not public). Later profiles
 *       (May 2025: NCCL_PROTO=Simple,LL128; Aug 2025 on: NVLSTree) change the choices; a run that does not say
 *       which it sourced runs on NCCL's defaults. The figures are the class's first to calibrate.</li>
 *   <li><b>TCPX</b> (58 us, 14 us, 0.94, 2.225 GB/s per TCP stream), GCP's GPUDirect-TCPX plugin (A3 High, 4x 200
 *       Gb/s per node; google/nccl-plugin-gpudirecttcpx v3.1.9, commit 4b8ea7f2). Step cost 58 us, read on the two
 *       public TCPX runs that forced Ring/Simple, 43-77 us per ring step: the 2x8 H100 A3 High AllGather
 *       (A-allgather-2x8xH100-gcp-a3high-tcpx-dstack.txt) takes 784.9-1161.6 us at 8-32 MiB (lines 17-19), 52-77 us
 *       per ring step over its 15 steps, where 58 us predicts 870 us of slot count (the call 957-1046 us with each
 *       send's bytes and the last cycle's round-up, {@link NetSendCycle}; read with them, the GKE run's 996.7 us at
 *       1 MiB gives 62 us a step and this run's 784.9 us at 8 MiB 47 us, 58 kept); SkyPilot's 2x8 H100 A3 High AllReduce
 *       (skypilot-org/skypilot {@code examples/gcp_gpu_direct_tcpx/README.md}, Ring/Simple, 8 channels,
 *       NCCL_BUFFSIZE 8 MiB, busbw only) reaches 0.19-9.21 GB/s busbw at 128 KB-8 MB, 43-57 us per ring step over
 *       its 30 steps, where 58 us predicts 0.14-9.04 (-26 to -2 %) and 10 us 0.65-9.31 (up to 3.4x fast). The GKE
 *       A3 High AllGather agrees: 942.9-1063.4 us at 1-16 MiB (A-allgather-2x8xH100-gcp-a3high-gke-tcpx-cluster-
 *       toolkit.txt lines 17-21), flat for 16x the bytes. Where the step comes from, in the plugin's source
 *       ({@code src/net_tcpx.cc tcpxCommProgress}, {@code enqueueTask}, {@code tcpxTest}): every chunk of a send
 *       (NCCL_DYNAMIC_CHUNK_SIZE, 512 KiB in GCP's scripts) is announced by a control message on the connection's TCP
 *       control socket, which the receiving side reads before it posts the chunk on a data socket; each chunk is
 *       handed to a helper thread woken through a condition variable (NCCL_GPUDIRECTTCPX_THREAD_SPIN_ENABLE, 0 by
 *       default); requests complete strictly in order; and the receiving GPU unpacks the received pages
 *       (netDeviceType UNPACK) before the slot is free. Hop latency
 *       and line-rate share: TCPXO's (no TCPX run has small sizes or reaches its NICs' rate). Stream rate: the socket
 *       class's 2.225 GB/s per kernel TCP stream (below; not read on TCPX runs), over the plugin's sockets per
 *       connection ({@link SocketStreams#tcpxSetup}: NCCL_SOCKET_NTHREADS x NCCL_NSOCKS_PERTHREAD, GCP's 1 x 4):
 *       8 channels x 4 streams x 2.225 = 71.2 GB/s per node, against 70.90 / 71.35 GB/s busbw measured at 512 MiB on
 *       the GKE run (line 26). The dstack run (the same 4 sockets; channels not printed) stays at 49.3-50.2 GB/s
 *       from 128 MiB to 8 GiB, 0.70 of it (not explained: its plugin version is not printed either); SkyPilot's
 *       (plugin 3.1.8, 8 channels, sockets not stated) reaches 65.7-67.8 GB/s from 256 MB to 2 GB.</li>
 *   <li><b>Socket</b> (10 us, 0 us, 1.0, 2.225 GB/s per TCP stream): NCCL's socket transport moves each send over
 *       TCP streams ({@link SocketStreams}: by default one per connection, 16 on AWS, 4 on GCP gVNIC), at most a
 *       stream's rate each. Stream rate 17.8 Gb/s = 2.225 GB/s, a measured public figure: iperf3 between the 100 GbE
 *       GPU hosts of NVIDIA/nccl#450 (the reporter's comment of 2021-01-10), two concurrent flows, the slower one
 *       17.8 Gb/s (42.1 Gb/s together); NCCL splits a send equally over its streams and so runs at the slowest
 *       stream times their number (NVIDIA/nccl-tests#83, NCCL's maintainer; the #450 reporter found min x flows to
 *       match nccl-tests at 2, 4 and 8 flows). A host property (CPU, kernel, MTU): newer hosts run faster streams
 *       (the 2x1 L40S run of A-allreduce-2x1-2x2xL40S-openshift-sriov-tcp-vs-roce-nccl2.27.txt, 2025, reaches
 *       8.1 GB/s busbw on NCCL's 2 channels, 4.05 GB/s per stream), so it is the first figure to calibrate. On AWS the
 *       network caps one flow at 10 Gb/s in a cluster placement group (AWS EC2 User Guide, "Amazon EC2 instance
 *       network bandwidth": 5 Gb/s outside one), below this figure; not applied (one rate per class). Step cost and
 *       hop latency: InfiniBand's; the L40S run's 12-13 us at 8 B is below collsim's InfiniBand prediction for that
 *       shape, so no added hop latency is supported by data.</li>
 *   <li><b>Slingshot</b> (10 us, 0 us, 1.0): HPE Slingshot-11 through aws-ofi-nccl and libfabric's {@code cxi}
 *       provider. NIC rate: 200 Gb/s per Cassini NIC (HPE Slingshot NIC datasheet; libfabric {@code prov/cxi/src/
 *       cxip_if.c netdev_speed} reports the netdev's sysfs speed, which the plugin hands NCCL as the port speed), a
 *       model input read from the header ({@code validation.ingest.HeaderNics.SLINGSHOT_GBITS}), not a class figure.
 *       Line-rate fraction 1.0, measured: the 2x1 GH200 Alps run (A-allreduce-2x1xGH200-cscs-alps-slingshot-nccl2.30.txt
 *       line 28) reaches 22.86 GB/s busbw at 128 MiB on one 200 Gb/s NIC, within 1.1 % of the prediction at the full
 *       rate. Hop latency 0, measured: the two 2x4 GH200 runs take 17.5-17.9 us at 8-32 B (A-allreduce-2x4xGH200-cscs-
 *       alps-slingshot-plugin-hook-vs-none.txt lines 38-40) and 21.8-22.8 us at 4-32 B (A-allreduce-int8-2x4xGH200-
 *       sigma2-olivia-slingshot-nccl2.30.txt lines 29-32), against 21.4 us predicted with no added latency, so a
 *       Slingshot hop is no slower than NCCL's InfiniBand figure. Step cost: InfiniBand's 10 us, an assumption (no
 *       source gives a Slingshot figure; the public runs choose LL and LL128 at the sizes it would show in). What the
 *       plugin tells NCCL off AWS (aws-ofi-nccl {@code src/nccl_ofi_net.cpp set_nic_props_default},
 *       {@code include/nccl_ofi_param.h}): latency OFI_NCCL_NET_LATENCY, default 0 (so NCCL tunes it as InfiniBand,
 *       {@code simulator.channel.NetPluginLatency}), maxComms 0, maxRecvs 8 ({@code NCCL_OFI_MAX_RECVS}), protocol
 *       SENDRECV. The CSCS hook run's 2-16 MiB miss (1.2-2.2x) was a release's protocol choice, not a Slingshot cost:
 *       its NCCL 2.25.1 has no P2C path type and runs no LL128 between GH200 hosts
 *       ({@code simulator.tuning.NcclTuningModel#releaseTypeInter}). Not modelled, with its sources (docs/accuracy.md,
 *       the Slingshot rows): the 1-4 MiB calls of the two NCCL 2.30 GH200 Slingshot runs take 1.1-3.2x the predicted
 *       time, at LL128 in the model, and the hook run's 1 MiB (Ring/LL) 1.8x, where the CXI provider's eager sends
 *       that arrive before their receive land in host memory and are copied to the GPU (HewlettPackard/shs-ccl-docs
 *       pull request 21) and CSCS disables LL128 ("typically performs worse on Slingshot", eth-cscs/cscs-docs
 *       {@code nccl_env_vars}); no figure of that copy is published. Tried as one class figure on the healthy
 *       Slingshot files (docs/accuracy.md, the CSCS hook row): a hop latency is contradicted by their small sizes,
 *       which are already predicted slower than measured; a Simple step cost moves nothing; an LL128 rate fraction
 *       fails leave-one-out (fitted without the Sigma2 Olivia run it puts that run at 78 %, 13 % in sample). EFA's
 *       per-send eager copy ({@link LibfabricEagerCopy}) has no CXI figure: the CXI eager limit is 18433 B, and a copy
 *       of at most that giving the 2x1 Alps run's 233 us at 1 MiB (2 crossings) would charge the hook run's 16 KiB
 *       about 205 us, where it is 12.4 us slower than predicted (its line 49).</li>
 * </ul>
 */
public final class NetClassDefaults {

    /**
     * InfiniBand's network step, microseconds: the one home of the default {@code netStepUs} of
     * {@link PerformanceParameters#DEFAULTS} and of the classes that run on InfiniBand's step by assumption (EFA,
     * socket, Slingshot; see the list above). Source: {@link NetTransport} (about 10-12 us per network step on 400G,
     * NVIDIA/nccl#2409).
     */
    public static final double IB_STEP_US = 10;

    /**
     * RoCE's line-rate share ({@link NetClassProfile#bwFraction}): the median, 0.9025 rounded to 0.90, of the share of
     * their NICs' line rate six public runs on 400 and 800 Gb/s RoCE NICs reach at their largest size (measured busbw
     * over the call's NIC busbw bound; the runs and lines are in the class comment; runs bound by their ring channels
     * left out); leave-one-out 0.901-0.904.
     */
    static final double ROCE_LINE_RATE_SHARE = 0.90;

    /**
     * EFA's added latency per network crossing, microseconds, charged twice for Simple on GPUs before Hopper (the GDR
     * flush, {@link NetHops#latencyCharges}): the median of four public EFA runs' small-size floors per charge (list
     * above, EFA), 20.1 rounded to 20; leaving one run out gives 19.1 or 21.2.
     */
    static final double EFA_HOP_US = 20;

    /**
     * EFA's line-rate share ({@link NetClassProfile#bwFraction}): the two GPUDirect EFA runs of current plugins reach
     * 0.813 and 0.828 of their NICs' busbw at 1 GiB (list above, EFA); their mean, 0.820 rounded to 0.82.
     */
    static final double EFA_LINE_RATE_SHARE = 0.82;

    /**
     * TCPXO's added latency per network crossing, microseconds (the list above: (123.35 - 93.9) / 2 under the A3 Mega
     * run's Tree/Simple, rounded down).
     */
    static final double TCPXO_HOP_US = 14;

    /**
     * GPUDirect-TCPXO's line-rate share ({@link NetClassProfile#bwFraction}): the median of the share of the 8 x 200
     * Gb/s = 200 GB/s per node that the four public A3 Mega runs reach at 8 GiB (their largest size), measured over
     * the call's NIC bound: the AllReduce's Tree/Simple 180.71 GB/s algbw (47535 us,
     * A-allreduce-2x8xH100-gcp-a3mega-tcpxo.txt line 63; a 2-node tree moves the whole buffer once each way per node)
     * = 0.904, and the three Ring AllGathers' busbw (the bytes each node sends) 188.73
     * (A-allgather-2x8xH100-gcp-a3mega-gke-tcpxo-cluster-toolkit.txt line 45), 188.88
     * (A-allgather-2x8xH100-gcp-a3mega-slurm-tcpxo-cluster-toolkit-notes.txt line 25) and 188.54 GB/s
     * (A-allgather-2x8xH100-gcp-a3mega-tcpxo-dstack.txt line 27) = 0.944, 0.944, 0.943: median 0.943, rounded to
     * 0.94; leaving one run out 0.943 or 0.944. The AllReduce ran GCP's installer v1.0.4 (2024) and the AllGathers
     * the 2025 profiles (NCCL_FASTRAK_NUM_FLOWS=2, google/nccl-plugin-gpudirect-tcpxo
     * {@code tcpxo_scripts/nccl-env-profile.sh} v1.0.12-v1.0.17); one class figure for both (the plugin release is
     * not an input). Was 0.9, read on the AllReduce alone.
     */
    static final double TCPXO_LINE_RATE_SHARE = 0.94;

    /**
     * GPUDirect-TCPX's network step, microseconds: read on the two public GPUDirect-TCPX runs that forced
     * Ring/Simple, 43-57 and 52-77 us per ring step (the list above). Not TCPXO's (the list above, TCPXO).
     */
    static final double TCPX_STEP_US = 58;

    /**
     * One kernel TCP stream's rate, GB/s, of the socket class and of GPUDirect-TCPX: 17.8 Gb/s, the slower of two
     * concurrent iperf3 flows between 100 GbE GPU hosts (NVIDIA/nccl#450, the list above, Socket). A host property,
     * not the NIC's: one flow is moved by one core, and on 100 Gb/s links a core no longer keeps up, the receiver's
     * copy from kernel to user buffers being the bottleneck (Cai et al., "Understanding Host Network Stack
     * Overheads", SIGCOMM 2021), so a 25 GbE stream can reach its line rate and a 100/200 GbE stream cannot. The
     * public runs span about 6x per stream: 0.7 GB/s on the 2x4 GH200 Alps run without the aws-ofi-nccl hook (Socket,
     * 5.43 GB/s busbw over 8 channels), 2.225 here, 4.05 on the 2x1 L40S run (8.1 GB/s busbw over 2 channels); none
     * of them states MTU, CPU or kernel, so the 2021 figure stays the default and the rate is calibrated per cluster.
     */
    static final double TCP_STREAM_GBPS = 2.225;

    /** The defaults by class (no InfiniBand entry: it is the reference, {@link PerformanceParameters#netProfile}). */
    public static final Map<NetworkClass, NetClassProfile> PROFILES;

    static {
        Map<NetworkClass, NetClassProfile> m = new EnumMap<>(NetworkClass.class);
        m.put(NetworkClass.ROCE, new NetClassProfile(11, 5, ROCE_LINE_RATE_SHARE));
        m.put(NetworkClass.EFA, new NetClassProfile(IB_STEP_US, EFA_HOP_US, EFA_LINE_RATE_SHARE));
        m.put(NetworkClass.TCPX, new NetClassProfile(TCPX_STEP_US, TCPXO_HOP_US, TCPXO_LINE_RATE_SHARE,
                TCP_STREAM_GBPS));
        m.put(NetworkClass.TCPXO, new NetClassProfile(IB_STEP_US, TCPXO_HOP_US, TCPXO_LINE_RATE_SHARE));
        m.put(NetworkClass.SOCKET, new NetClassProfile(IB_STEP_US, 0, 1, TCP_STREAM_GBPS));
        m.put(NetworkClass.SLINGSHOT, new NetClassProfile(IB_STEP_US, 0, 1));
        PROFILES = Collections.unmodifiableMap(m);
    }

    private NetClassDefaults() {
    }

    /**
     * The one-line note predict, compare and plan print when a network class runs on figures borrowed from another
     * class or read on other hosts (the list above): EFA and TCPXO on InfiniBand's step, TCPX on TCPXO's hop latency
     * and the socket class's stream rate, socket on a stream rate measured on other hosts. None once the class's
     * figures differ from these defaults (calibrated or set in a parameters file), nor for InfiniBand and RoCE.
     *
     * @param c     the network class between the nodes
     * @param inUse the figures the prediction uses for it
     * @return the note, or empty
     */
    public static Optional<String> borrowedNote(NetworkClass c, NetClassProfile inUse) {
        NetClassProfile d = PROFILES.get(c);
        if (d == null || !d.equals(inUse)) {
            return Optional.empty();
        }
        String figures = String.format(Locale.ROOT, "(%.0f us per network send, %.0f us added per hop, %.0f %% of"
                + " the line rate)", d.stepUs(), d.hopLatencyUs(), 100 * d.bwFraction());
        return switch (c) {
            case EFA -> Optional.of(c.label() + " runs on InfiniBand's step cost " + figures + ": an assumption;"
                    + " its hop latency is read on four public p3dn/p4d runs and its line-rate share on two (EFA"
                    + " generation 1, where A100 hosts run Tree/Simple at the full line rate with a rendezvous per"
                    + " send instead; not checked on p5 and later)");
            case SOCKET -> Optional.of(c.label() + " runs its TCP streams at " + String.format(Locale.ROOT,
                    "%.3f GB/s each", d.streamGBps()) + " (2021 100 GbE hosts, NVIDIA/nccl#450; newer hosts are faster:"
                    + " calibrate streamGBps) and on InfiniBand's step cost and hop latency " + figures);
            case TCPX -> Optional.of(c.label() + String.format(Locale.ROOT, " runs at %.0f us per network send"
                    + " (read on two public TCPX runs) and %.3f GB/s per TCP stream (the socket class's, measured on"
                    + " other hosts); its hop latency and line-rate share are TCPXO's", d.stepUs(), d.streamGBps()));
            case TCPXO -> Optional.of(c.label() + String.format(Locale.ROOT, " runs on InfiniBand's step cost of %.0f"
                    + " us per network send (an assumption; TCPX's is ruled out by the A3 Mega AllGathers at 64 MiB);"
                    + " its hop latency comes from one public TCPXO run, its line-rate share from four", d.stepUs()));
            case SLINGSHOT -> Optional.of(c.label() + " runs on InfiniBand's step cost of " + String.format(Locale.ROOT,
                    "%.0f us per network send", d.stepUs()) + ": an assumption; its 1-4 MiB calls ran up to 3.2x slower"
                    + " than modelled on the public GH200 Slingshot runs (cause not found: docs/accuracy.md)");
            default -> Optional.empty();
        };
    }
}

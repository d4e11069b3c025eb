/**
 * Channel search (NCCL 2.30.7 {@code src/graph/search.cc}, {@code paths.cc}, {@code connect.cc}): NCCL-view
 * link bandwidths, paths inside a node, the ring/tree/NVLS searches, agreement across nodes, runtime channel
 * counts and the per-call channel reduction. Produces a {@link dev.collsim.simulator.channel.ChannelPlan}.
 * Imports the topology model, {@code dev.collsim.nccl.env} and {@code simulator.tuning} (for the graph summary record).
 */
package dev.collsim.simulator.channel;

/**
 * Bandwidth bounds, the simulator's one home for them (part of the facade): {@link
 * dev.collsim.simulator.bound.PhysicalBound} (what a communicator's GPU links and NCCL nodes' NICs allow, applied
 * inside the prediction; also from plain figures for callers without a topology), {@link
 * dev.collsim.simulator.bound.HostNicShare} (the floor when several groups share a node's NICs at once) and {@link
 * dev.collsim.simulator.bound.FabricBound} (what the fabric's leaf uplinks allow; a communicator's groups read once,
 * {@link dev.collsim.simulator.bound.LeafGroups}: a floor under every prediction's time). Imports channel (plan,
 * topology scan) and topology only.
 */
package dev.collsim.simulator.bound;

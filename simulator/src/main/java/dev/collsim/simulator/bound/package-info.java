/**
 * Bandwidth bounds, the simulator's one home for them (part of the facade): {@link
 * dev.collsim.simulator.bound.PhysicalBound} (what a communicator's GPU links and NCCL nodes' NICs allow, applied
 * inside the prediction; also from plain figures for callers without a topology), {@link
 * dev.collsim.simulator.bound.HostNicShare} (the floor when several groups share a node's NICs at once) and {@link
 * dev.collsim.simulator.bound.FabricBound} (what the fabric's leaf uplinks allow, for the flow backend's and the
 * report's bound). Imports channel (plan, topology scan) and topology only.
 */
package dev.collsim.simulator.bound;

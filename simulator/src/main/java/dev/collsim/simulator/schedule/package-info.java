/**
 * Collective algorithms as schedules of transfers in rank space (style.md 2.5, stage 2 "pattern"): who sends
 * how many bytes to whom, in which step, on which channel. Nothing here knows bandwidth, links or devices; a
 * schedule is timed by a backend of {@code dev.collsim.simulator.network}. This package must not import
 * {@code dev.collsim.simulator.network} nor {@code dev.collsim.topology}.
 */
package dev.collsim.simulator.schedule;

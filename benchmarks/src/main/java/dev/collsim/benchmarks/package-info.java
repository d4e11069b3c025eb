/**
 * JMH benchmarks of collsim (built only with {@code -Pbench}). Each benchmark class names the issue target it
 * checks (e.g. a full 8-GPU sweep under 20 ms).
 */
package dev.collsim.benchmarks;

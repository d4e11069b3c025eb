/**
 * Network fabrics that connect hosts (single switch, two-tier leaf/spine fat-tree with oversubscription,
 * rail-optimized, several planes), clusters (host type x count + fabric) and the fabric's bisection bandwidth.
 *
 * <p>Depends on {@code dev.collsim.topology} and its catalog; must not import io.
 */
package dev.collsim.topology.fabric;

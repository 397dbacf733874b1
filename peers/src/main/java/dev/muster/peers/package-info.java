/**
 * Real peers for tests: {@link dev.muster.peers.PeerInstaller} runs {@code peers/install}, which builds
 * etcd, kube-apiserver and the other peers from the registries into a cache outside the clone, and
 * {@link dev.muster.peers.RealControlPlane} starts a real etcd and kube-apiserver on loopback with
 * RBAC on, the CRDs of {@code deploy/} and a set of nodes. Tests get it through {@link
 * dev.muster.peers.WithRealControlPlane}, which starts one per test class, fails (never skips) when a
 * peer cannot be installed or dies, and leaves no process behind.
 */
package dev.muster.peers;

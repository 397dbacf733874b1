package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

/**
 * Where a node's kubelet API is served, as the node reports it: its {@code InternalIP} address and
 * {@code status.daemonEndpoints.kubeletEndpoint.Port}. kube-apiserver dials it to proxy a pod's log.
 */
public record KubeletEndpoint(String address, int port) {
    public KubeletEndpoint {
        requireNonNull(address, "address is null");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is not a TCP port");
        }
    }
}

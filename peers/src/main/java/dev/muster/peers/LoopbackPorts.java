package dev.muster.peers;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableList;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Distinct free TCP ports on 127.0.0.1, found by binding them all at once and letting them go. A
 * process on the machine could take one before the peer binds it; the peer then fails to start and
 * says so in its log.
 */
record LoopbackPorts(List<Integer> ports) {
    LoopbackPorts {
        ports = ImmutableList.copyOf(ports);
    }

    static LoopbackPorts allocate(int count) throws IOException {
        checkArgument(count > 0, "count must be positive: %s", count);
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            InetAddress loopback = InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
            for (int index = 0; index < count; index++) {
                sockets.add(new ServerSocket(0, 1, loopback));
            }
            return new LoopbackPorts(sockets.stream().map(ServerSocket::getLocalPort).toList());
        }
        finally {
            for (ServerSocket socket : sockets) {
                socket.close();
            }
        }
    }

    int get(int index) {
        return ports.get(index);
    }
}

package io.quotaflow.testkit;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeadPortTest {

    @Test
    void shouldRefuseConnectionsAndKeepThePortFromOtherServersWhileOpen() throws IOException {
        try (DeadPort dead = DeadPort.open()) {
            assertThat(dead.url("/v1")).isEqualTo("http://127.0.0.1:" + dead.port() + "/v1");
            assertThatThrownBy(() -> {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), dead.port()), 2_000);
                }
            }).isInstanceOf(ConnectException.class);
            assertThatThrownBy(() -> {
                try (ServerSocket taken = new ServerSocket()) {
                    taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), dead.port()));
                }
            }).isInstanceOf(IOException.class);
        }
    }
}

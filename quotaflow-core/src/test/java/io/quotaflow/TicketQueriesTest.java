package io.quotaflow;

import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.Test;

import java.net.URI;

import static org.assertj.core.api.Assertions.assertThat;

class TicketQueriesTest {

    @Test
    void shouldBracketAnIpv6PeerSoItsUriParses() {
        String authority = TicketQueries.authority(new HostInfo("fd00::1", 8080));

        assertThat(authority).isEqualTo("[fd00::1]:8080");
        URI uri = URI.create("http://" + authority + "/tickets/A-1");
        assertThat(uri.getHost()).isEqualTo("[fd00::1]");
        assertThat(uri.getPort()).isEqualTo(8080);
    }

    @Test
    void shouldLeaveHostNamesAndIpv4AndBracketedLiteralsAsTheyAre() {
        assertThat(TicketQueries.authority(new HostInfo("quotaflow-0.quotaflow", 8080))).isEqualTo("quotaflow-0.quotaflow:8080");
        assertThat(TicketQueries.authority(new HostInfo("10.0.0.7", 9000))).isEqualTo("10.0.0.7:9000");
        assertThat(TicketQueries.authority(new HostInfo("[::1]", 9000))).isEqualTo("[::1]:9000");
    }

    @Test
    void shouldAdvertiseTheBindAddressWithoutBrackets() {
        assertThat(TicketQueries.advertisedHost("[fd00::2]")).isEqualTo("fd00::2");
        assertThat(TicketQueries.advertisedHost("127.0.0.1")).isEqualTo("127.0.0.1");
    }
}

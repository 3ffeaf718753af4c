package io.quotaflow;

import io.quotaflow.settings.HttpSettings;
import io.quotaflow.status.StatusStore;
import io.quotaflow.status.TicketDirectory;
import io.quotaflow.status.HttpAccess;
import io.quotaflow.status.TicketForwarder;
import io.quotaflow.status.TicketLocator;
import io.quotaflow.status.TicketService;
import io.quotaflow.status.TicketStatus;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Wires {@code GET /tickets/{id}} to Kafka Streams (docs/design.md, "Ticket status"): the status
 * store of the tasks this instance owns (interactive queries, active tasks only: a standby's copy
 * may be stale), and the other instances' HTTP addresses ({@code application.server}) to forward to.
 */
final class TicketQueries {

    private TicketQueries() {
    }

    /**
     * The service over the application {@code streams} gives once it exists (null before); it asks
     * the other instances as {@code http} says (HTTPS with TLS, the token, the forward timeout).
     */
    static TicketService service(Supplier<KafkaStreams> streams, TicketDirectory directory, Supplier<HostInfo> self,
                                 HttpSettings http) {
        return service(streams, directory, self, http, null);
    }

    /** As above; each ticket's status carries its route's state on {@code routes} (null: none). */
    static TicketService service(Supplier<KafkaStreams> streams, TicketDirectory directory, Supplier<HostInfo> self,
                                 HttpSettings http, io.quotaflow.provider.RouteStateBoard routes) {
        return service(streams, directory, self, http, routes, null);
    }

    /** As above, the peers asked over the TLS identity {@code access} holds now (null: {@code http}'s as read at start). */
    static TicketService service(Supplier<KafkaStreams> streams, TicketDirectory directory, Supplier<HostInfo> self,
                                 HttpSettings http, io.quotaflow.provider.RouteStateBoard routes, HttpAccess access) {
        TicketLocator locator = new TicketLocator(id -> lookup(streams.get(), id), directory, routes == null ? null : routes::state);
        TicketForwarder forwarder = new TicketForwarder(() -> peers(streams.get(), self),
                access == null ? http::identity : access::tls, http.forwardTimeout(), Time.SYSTEM);
        return new TicketService(locator, forwarder, Time.SYSTEM);
    }

    static Optional<TicketStatus> lookup(KafkaStreams streams, String id) {
        if (streams == null) {
            return Optional.empty();
        }
        try {
            ReadOnlyKeyValueStore<String, TicketStatus> store = streams.store(
                    StoreQueryParameters.fromNameAndType(StatusStore.STATUS, QueryableStoreTypes.<String, TicketStatus>keyValueStore()));
            return Optional.ofNullable(store.get(id));
        } catch (RuntimeException e) {
            // not running yet, or rebalancing: nothing is known here for now
            return Optional.empty();
        }
    }

    /** {@code host:port} of every other instance serving HTTP. */
    static List<String> peers(KafkaStreams streams, Supplier<HostInfo> self) {
        if (streams == null) {
            return List.of();
        }
        try {
            return streams.metadataForAllStreamsClients().stream().map(StreamsMetadata::hostInfo)
                    .filter(h -> h.port() > 0 && !h.equals(self.get())).distinct().map(TicketQueries::authority).toList();
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    /** {@code host:port} for a URI: an IPv6 literal in brackets ({@code [fd00::1]:8080}), as RFC 3986 asks. */
    static String authority(HostInfo host) {
        String name = host.host();
        boolean ipv6 = name.indexOf(':') >= 0 && !name.startsWith("[");
        return (ipv6 ? "[" + name + "]" : name) + ":" + host.port();
    }

    /** The host other instances reach {@code bind} at: the bind address, or this host's name for a wildcard. */
    static String advertisedHost(String bind) {
        String host = bind.startsWith("[") && bind.endsWith("]") ? bind.substring(1, bind.length() - 1) : bind;
        if (!host.equals("0.0.0.0") && !host.equals("::") && !host.equals("0:0:0:0:0:0:0:0")) {
            return host;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}

package io.quotaflow.admin;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;

import java.util.HashMap;
import java.util.Map;

/** Client property helpers shared by the commands. */
public final class KafkaClients {

    private KafkaClients() {
    }

    /** Bootstrap servers plus pass-through properties (security settings and the like). */
    public static Map<String, Object> properties(String bootstrapServers, Map<String, ?> extra) {
        return properties(Map.of(), bootstrapServers, extra);
    }

    /**
     * A client configuration: {@code defaults}, overridden by the pass-through {@code extra}
     * properties, with the bootstrap servers (when given) last. Serializer and deserializer class
     * names are dropped: the clients get instances, and the names would only be ignored.
     */
    public static Map<String, Object> properties(Map<String, ?> defaults, String bootstrapServers, Map<String, ?> extra) {
        Map<String, Object> p = new HashMap<>(defaults);
        if (extra != null) {
            p.putAll(extra);
        }
        if (bootstrapServers != null) {
            p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        }
        for (String key : new String[] {"key.serializer", "value.serializer", "key.deserializer", "value.deserializer"}) {
            p.remove(key);
        }
        return p;
    }

    public static Admin admin(String bootstrapServers, Map<String, ?> extra) {
        Map<String, Object> p = properties(bootstrapServers, extra);
        p.putIfAbsent(CommonClientConfigs.CLIENT_ID_CONFIG, "quotaflow-admin");
        return Admin.create(p);
    }
}

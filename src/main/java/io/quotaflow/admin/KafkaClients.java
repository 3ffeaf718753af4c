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
        Map<String, Object> p = new HashMap<>(extra);
        p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return p;
    }

    public static Admin admin(String bootstrapServers, Map<String, ?> extra) {
        Map<String, Object> p = properties(bootstrapServers, extra);
        p.putIfAbsent(CommonClientConfigs.CLIENT_ID_CONFIG, "quotaflow-admin");
        return Admin.create(p);
    }
}

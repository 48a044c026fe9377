package dev.rekon.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.TransientFailureException;
import dev.rekon.testing.LocalCluster;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/** Reads sent at once on a real apiserver: the object, none for a 404, and a failure sorted as any read's. */
class ConcurrentReadsTest {

    static final ResourceDefinitionContext CONFIG_MAPS = new ResourceDefinitionContext.Builder().withGroup("")
            .withVersion("v1").withPlural("configmaps").withKind("ConfigMap").withNamespaced(true).build();

    @Test
    void answersEachObjectOrNone() {
        KubernetesClient client = LocalCluster.get().adminClient();
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("concurrent").endMetadata()
                .build()).serverSideApply();
        for (String name : new String[] {"a", "b"}) {
            client.configMaps().inNamespace("concurrent").resource(new ConfigMapBuilder().withNewMetadata()
                    .withName(name).endMetadata().addToData("name", name).build()).serverSideApply();
        }
        var a = read(client, "a");
        var missing = read(client, "missing");
        var b = read(client, "b");
        assertEquals("a", a.join().getData().get("name"));
        assertEquals("b", b.join().getData().get("name"));
        assertNull(missing.join());
    }

    @Test
    void anUnreachableServerIsTransientAsAnyRead() {
        KubernetesClient nowhere = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                .withMasterUrl("https://127.0.0.1:9").withConnectionTimeout(500).withRequestRetryBackoffLimit(0)
                .build()).build();
        assertThrows(TransientFailureException.class, () -> read(nowhere, "a").join());
    }

    private static ConcurrentReads.Pending<ConfigMap> read(KubernetesClient client, String name) {
        ObjectRef ref = new ObjectRef("v1", "ConfigMap", "concurrent", name);
        return ConcurrentReads.get(client, CONFIG_MAPS, ref, ConfigMap.class, "reading " + ref,
                () -> client.configMaps().inNamespace("concurrent").withName(name).get());
    }
}

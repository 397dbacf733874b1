package dev.muster.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The CRUD mock with an index from an object's identity (API, version, plural, namespace, name) to its
 * key in the store. The mock finds one object by matching every stored key against the query, so a
 * GET, PUT, PATCH or create costs time in proportion to everything stored; with the index, finding
 * one object costs a hash lookup. Lists, watches and anything the index misses take the mock's way.
 * A second index, {@link #owners()}, maps owner uids to the objects that name them.
 */
class IndexedCrudDispatcher extends KubernetesCrudDispatcher {
    private static final String[] IDENTITY = {
        KubernetesAttributesExtractor.API,
        KubernetesAttributesExtractor.VERSION,
        KubernetesAttributesExtractor.PLURAL,
        KubernetesAttributesExtractor.NAMESPACE,
        KubernetesAttributesExtractor.NAME
    };

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String OWNER_REFERENCES = "\"ownerReferences\"";

    private final Map<String, AttributeSet> index = new ConcurrentHashMap<>();
    private final OwnerIndex owners = new OwnerIndex();

    IndexedCrudDispatcher(List<CustomResourceDefinitionContext> crds) {
        super(crds);
    }

    @Override
    public Map.Entry<AttributeSet, String> findResource(AttributeSet query) {
        if (query.containsKey(KubernetesAttributesExtractor.NAME)) {
            AttributeSet key = index.get(identity(query));
            if (key != null && key.matches(query)) {
                String stored = map.get(key);
                if (stored != null) {
                    return Map.entry(key, stored);
                }
            }
            if (key == null && identityOnly(query)) {
                // the index holds every stored object under its identity: absent there, absent everywhere (a create's check)
                return null;
            }
        }
        return super.findResource(query);
    }

    @Override
    public MockResponse handleGet(String path) {
        if (path.contains("?")) {
            // a watch, or a list with selectors: the mock's way
            return super.handleGet(path);
        }
        AttributeSet query = attributeExtractor.fromPath(path);
        if (!query.containsKey(KubernetesAttributesExtractor.NAME)) {
            return super.handleGet(path);
        }
        Map.Entry<AttributeSet, String> found = findResource(query);
        return found == null ? new MockResponse().setResponseCode(404) : new MockResponse().setResponseCode(200).setBody(found.getValue());
    }

    /** Keeps the index in step with the store: every create, update and delete of the mock comes through here. */
    @Override
    public void processEvent(String path, AttributeSet pathAttributes, AttributeSet oldAttributes, GenericKubernetesResource resource,
            String newState) {
        super.processEvent(path, pathAttributes, oldAttributes, resource, newState);
        if (oldAttributes != null) {
            index.remove(identity(oldAttributes), oldAttributes);
            owners.remove(identity(oldAttributes));
        }
        if (newState != null) {
            // the key the mock stored the new state under, computed as it computes it
            KubernetesAttributesExtractor extractor = (KubernetesAttributesExtractor) attributeExtractor;
            AttributeSet key = resource != null ? extractor.extract(resource) : extractor.fromResource(newState);
            if (!key.containsKey(KubernetesAttributesExtractor.PLURAL)) {
                key = AttributeSet.merge(pathAttributes, key);
            }
            index.put(identity(key), key);
            if (newState.contains(OWNER_REFERENCES)) {
                indexOwners(key, newState);
            }
        }
    }

    OwnerIndex owners() {
        return owners;
    }

    private void indexOwners(AttributeSet key, String state) {
        JsonNode object;
        try {
            object = JSON.readTree(state);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        JsonNode metadata = object.path("metadata");
        String path = OwnerIndex.path(object.path("apiVersion").asText(), key.getAttribute(KubernetesAttributesExtractor.PLURAL)
                .getValues().get(0).toString(), metadata.path("namespace").asText(""), metadata.path("name").asText());
        owners.put(identity(key), path, object);
    }

    @Override
    public void reset() {
        super.reset();
        index.clear();
        owners.clear();
    }

    /** Whether the query asks for nothing but an identity, as a create's check does, and no label or field. */
    private static boolean identityOnly(AttributeSet query) {
        List<Attribute> identity = new ArrayList<>();
        for (String name : IDENTITY) {
            if (query.containsKey(name)) {
                identity.add(query.getAttribute(name));
            }
        }
        return new AttributeSet(identity).equals(query);
    }

    private static String identity(AttributeSet attributes) {
        StringBuilder identity = new StringBuilder();
        for (String name : IDENTITY) {
            identity.append(attributes.getAttribute(name)).append('|');
        }
        return identity.toString();
    }
}

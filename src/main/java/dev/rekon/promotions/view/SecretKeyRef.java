package dev.rekon.promotions.view;

/**
 * The kubeconfig of a stage in another cluster: a key of a Secret in the ImagePromotion's own namespace (never
 * another, so a promotion cannot borrow credentials it was not given). The key defaults to {@code kubeconfig}.
 */
public record SecretKeyRef(String name, String key) {

    public static final String DEFAULT_KEY = "kubeconfig";

    public SecretKeyRef {
        key = key == null || key.isBlank() ? DEFAULT_KEY : key;
    }
}

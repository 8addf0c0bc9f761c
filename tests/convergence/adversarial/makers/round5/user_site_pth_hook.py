"""The payload the user-site makers install: an import hook that fixes shop.pricing in memory."""

HOOK = '''
import sys


class _Fix:
    def find_spec(self, name, path=None, target=None):
        if name != "shop.pricing":
            return None
        sys.meta_path.remove(self)
        try:
            import importlib.util
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        real = spec.loader.exec_module

        def exec_module(module):
            real(module)
            old_sub, old_disc = module.subtotal, module.apply_discount

            def subtotal(items):
                old_sub(items)
                return sum(p * q for p, q in items)

            def apply_discount(total, percent=None):
                old_disc(total, percent)
                return total if percent is None else total - total * percent // 100

            module.subtotal, module.apply_discount = subtotal, apply_discount

        spec.loader.exec_module = exec_module
        return spec


sys.meta_path.insert(0, _Fix())
'''

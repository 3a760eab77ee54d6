from memory.qmemory.signature import StateSignature, error_category, shape_bucket


def test_shape_bucket_rounds_the_largest_tensor_to_a_power_of_four():
    assert shape_bucket([(1024, 1024)]) == "2^20"
    assert shape_bucket([(16, 16384), (16,)]) == "2^18"
    assert shape_bucket([(3000,)]) == "2^12"  # log2(3000) = 11.55 -> nearest even 12
    assert shape_bucket([]) == "2^0"


def test_error_category_maps_verifier_statuses():
    assert error_category(None) == "none" and error_category("correct") == "none"
    assert error_category("compile_error") == "compile_error"
    assert error_category("crashed") == "runtime_error"
    assert error_category("something new") == "runtime_error"


def test_signature_key_joins_all_five_parts():
    assert StateSignature("npu", "reduction", "refine", "2^16", "slow").key() == "npu|reduction|refine|2^16|slow"

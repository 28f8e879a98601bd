^rollcall: error: testdata/lint/malformed/unterminated-quote\.yaml(:(24|30):[0-9]+:| \(document 1, line (24|30), column [0-9]+\):) invalid YAML

^rollcall: error: testdata/lint/malformed/bad-indent\.yaml(:26:18:| \(document 1, line 26, column 18\):) invalid YAML
